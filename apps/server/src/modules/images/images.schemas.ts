import { Type } from 'typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import {
  Description,
  Id,
  Name,
  Prompt,
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

/** The longest prompt an image may be generated from (OpenAI's limit for its image models). */
export const maxImagePromptLength = 4000;

const ImageName = Name();
// As long as the longest image prompt: a generated image's description is its prompt.
const ImageDescription = Description({ maxLength: maxImagePromptLength });

export const UploadImageBody = Type.Object(
  {
    file: FileField('A JPEG, PNG, GIF (animations kept) or WebP image; what it is is read from its bytes'),
    name: ImageName,
    description: Type.Optional(ImageDescription),
  },
  { additionalProperties: false },
);

/** The sizes the image models of OpenAI and compatible servers make, in pixels. */
export const generatedImageSizes = ['1024x1024', '1536x1024', '1024x1536'] as const;
export type GeneratedImageSize = (typeof generatedImageSizes)[number];

export const GenerateImageBody = RequestBody({
  prompt: Prompt({
    minLength: 1,
    maxLength: maxImagePromptLength,
    description:
      'What the image shows. Sent to the AI provider as it is, and kept as the image’s description.',
    examples: ['A red fox asleep in autumn leaves, soft morning light, photographic'],
  }),
  size: Type.Optional(
    Type.Enum([...generatedImageSizes], {
      default: '1024x1024',
      description: 'Width × height in pixels: square, landscape or portrait',
    }),
  ),
  name: Type.Optional(
    Name({ description: 'The image’s name in the library; by default the first words of the prompt' }),
  ),
  aspect_ratio: Type.Optional(
    Type.Object(
      {
        width: Type.Integer({ minimum: 1, maximum: 10_000 }),
        height: Type.Integer({ minimum: 1, maximum: 10_000 }),
      },
      {
        additionalProperties: false,
        description:
          'The proportion the image must have, e.g. the 600 × 300 of the image field it is for. Letterset asks the ' +
          'model for the nearest size it makes and crops the middle of the answer to this proportion; it takes the place of ' +
          '`size`',
      },
    ),
  ),
});

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
