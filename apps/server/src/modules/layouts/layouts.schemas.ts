import { Type } from 'typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { ErrorCodeSchema, Id, limits, Name, RequestBody, ref, Timestamp } from '../../http/schemas.ts';
import { BranchedText, InstancesContent, Locale } from '../email-content/email-content.schemas.ts';

/**
 * A layout's body, and optionally the subject and preheader an email started from it begins with
 * (the Letterset Starter's layouts have them; a layout saved from an email's body has none).
 */
export const LayoutContent = Type.Object(
  {
    subject: Type.Optional(BranchedText),
    preheader: Type.Optional(BranchedText),
    ...InstancesContent.properties,
  },
  { additionalProperties: false },
);

export const Layout = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email_design_system_id: Type.Integer(),
    brand_profile_id: Type.Union([Type.Integer(), Type.Null()]),
    content: LayoutContent,
    locales: Type.Array(ref(Locale)),
    lock_version: Type.Integer({
      description: 'The version this layout is at. Send it back with a PATCH: a stale one is answered 409',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Layout' },
);

export const LayoutConflict = Type.Object(
  {
    message: Type.String(),
    code: ref(ErrorCodeSchema),
    lock_version: Type.Integer({ description: 'The current version; the write named an older one' }),
    layout: ref(Layout),
  },
  {
    $id: 'LayoutConflict',
    description:
      'Someone saved this layout since you loaded it. Nothing was written; here is what is current',
  },
);

export const CreateLayoutBody = RequestBody({
  name: Name(),
  email_design_system_id: Id(),
  brand_profile_id: Type.Optional(Type.Union([Id(), Type.Null()])),
  content: LayoutContent,
  locales: Type.Optional(Type.Array(ref(Locale), { uniqueItems: true, maxItems: 60 })),
});

export const UpdateLayoutBody = RequestBody({
  name: Type.Optional(Name()),
  brand_profile_id: Type.Optional(Type.Union([Id(), Type.Null()])),
  content: Type.Optional(LayoutContent),
  locales: Type.Optional(Type.Array(ref(Locale), { uniqueItems: true, maxItems: 60 })),
  lock_version: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: limits.largestId,
      description:
        'The lock_version you loaded. When it is no longer current the answer is 409 and nothing is saved; without it the last write wins',
    }),
  ),
});

export const layoutSorts = [
  'name_asc',
  'name_desc',
  'created_at_asc',
  'created_at_desc',
  'updated_at_asc',
  'updated_at_desc',
] as const;

export const ListLayoutsQuery = Type.Object({
  ...PaginationQuery.properties,
  email_design_system_id: Type.Optional(Id()),
  brand_profile_id: Type.Optional(
    Type.Union([Id(), Type.Literal('null')], {
      description: 'A brand profile id, or null for layouts without one',
    }),
  ),
  sort: Type.Optional(Type.Enum([...layoutSorts], { default: 'created_at_desc' })),
});

export const LayoutParams = Type.Object({ workspace_id: Id(), id: Id() });
