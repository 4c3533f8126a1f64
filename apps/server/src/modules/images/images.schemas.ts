import { Type } from 'typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import {
  Description,
  Id,
  Name,
  RequestBody,
  SearchText,
  Timestamp,
  WorkspaceIdParams,
} from '../../http/schemas.ts';
import { FileField } from '../../http/uploads.ts';

export const Image = Type.Object(
  {
    id: Type.String({ examples: ['img_k3v9x2m4q8w7r5t1'] }),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    filename: Type.String({ description: 'The file name as uploaded' }),
    width: Type.Integer({ description: 'Pixels (one frame of an animation)' }),
    height: Type.Integer(),
    file_size: Type.Integer({ description: 'Bytes stored' }),
    extension: Type.Enum(['jpg', 'png', 'gif', 'webp']),
    animated: Type.Boolean(),
    public_url: Type.String({ description: 'Absolute URL to use in emails; it never changes' }),
    thumbnail_url: Type.String({ description: 'A WebP of at most 400 × 400 for library grids' }),
    organization_id: Type.Integer(),
    workspace_id: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Image' },
);

const ImageName = Name();
const ImageDescription = Description({ maxLength: 1000 });

export const UploadImageBody = Type.Object(
  {
    file: FileField('A JPEG, PNG, GIF (animations kept) or WebP image; what it is is read from its bytes'),
    name: ImageName,
    description: Type.Optional(ImageDescription),
  },
  { additionalProperties: false },
);

export const UpdateImageBody = RequestBody({
  name: Type.Optional(ImageName),
  description: Type.Optional(Type.Union([ImageDescription, Type.Null()])),
});

export const ListImagesQuery = Type.Object({
  ...PaginationQuery.properties,
  search: Type.Optional(SearchText({ description: 'Matches the name or the description' })),
});

export const ImagesParams = WorkspaceIdParams;
export const ImageParams = Type.Object({
  workspace_id: Id(),
  id: Type.String({ maxLength: 64, examples: ['img_k3v9x2m4q8w7r5t1'] }),
});

export const DeleteImageQuery = Type.Object({
  force: Type.Optional(
    Type.Boolean({ default: false, description: 'Delete even when emails show the image' }),
  ),
});
