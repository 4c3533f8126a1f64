import { fieldTypes, richTextMarkNames } from '@letterset/core';
import { Type } from 'typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import {
  ContentValue,
  Description,
  Id,
  Identifier,
  Label,
  RequestBody,
  ref,
  Template,
  Text,
  Timestamp,
  Url,
} from '../../http/schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

/** Custom style names are used in class names: es-custom-style-{name}. */
const CustomStyleName = Type.String({ maxLength: 64 });

const Mark = Type.Object(
  { enabled: Type.Boolean(), custom_style_name: Type.Optional(Type.Union([CustomStyleName, Type.Null()])) },
  { additionalProperties: false },
);

export const FieldDefinition = Type.Object(
  {
    type: Type.Enum([...fieldTypes]),
    label: Label({ description: 'Shown in the editor' }),
    liquid_variable: Identifier({
      description: 'The name the template reads; renaming it loses values saved in emails',
    }),
    default_value: Type.Union([ContentValue(), Type.Number(), Type.Boolean()]),
    group: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    visible_if: Type.Optional(
      Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
        description: 'A Liquid expression over the other fields, e.g. show_cta == true',
      }),
    ),
    hint: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    validations: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Union([Type.Number(), Type.Boolean()])), Type.Null()]),
    ),
    hidden_in_editor: Type.Optional(Type.Boolean()),
    hidden_from_ai: Type.Optional(Type.Boolean()),
    feed_field_name: Type.Optional(Type.Union([Identifier(), Type.Null()])),
    options: Type.Optional(
      Type.Union([
        Type.Array(
          Type.Object(
            {
              label: Label(),
              value: Text(),
              icon_url: Type.Optional(Type.Union([Url(), Type.Null()])),
            },
            { additionalProperties: false },
          ),
        ),
        Type.Array(Text()),
      ]),
    ),
    alignments: Type.Optional(Type.Array(Type.String({ maxLength: 20 }))),
    skip_link_tracking: Type.Optional(Type.Boolean()),
    marks: Type.Optional(
      Type.Union([
        Type.Object(Object.fromEntries(richTextMarkNames.map((name) => [name, Type.Optional(Mark)])), {
          additionalProperties: false,
        }),
        Type.Null(),
      ]),
    ),
    custom_styles_names: Type.Optional(Type.Array(CustomStyleName)),
  },
  { $id: 'FieldDefinition', additionalProperties: false, description: 'An editable field of a component' },
);

export const Component = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    label: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    email_design_system_id: Type.Integer(),
    container: Type.Boolean(),
    template: Type.String(),
    field_definitions: Type.Array(ref(FieldDefinition)),
    position: Type.Union([Type.Integer(), Type.Null()]),
    deprecated: Type.Boolean({ description: 'Still renders in existing emails; not offered for new ones' }),
    feed_id: Type.Union([Type.Integer(), Type.Null()]),
    screenshot_url: Type.Union([Type.String(), Type.Null()]),
    last_updated_by: Type.Union([ref(UserReference), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Component' },
);

export const ComponentVersion = Type.Object(
  {
    version_id: Type.String(),
    component_data: Type.Object({
      name: Type.String(),
      label: Type.String(),
      template: Type.String(),
      field_definitions: Type.Array(ref(FieldDefinition)),
    }),
    created_at: Timestamp,
    last_updated_by: Type.Union([ref(UserReference), Type.Null()]),
  },
  { $id: 'ComponentVersion' },
);

const ComponentName = Type.String({
  pattern: '^[a-z][a-z0-9_]*$',
  maxLength: 64,
  description: 'A stable identifier (hero_banner); renaming it breaks existing emails',
});

const ComponentFeedId = Type.Union([Id(), Type.Null()], {
  description:
    'A feed of the workspace: a run of it fills the fields that name one of its fields in feed_field_name. Null for none',
});

export const CreateComponentBody = RequestBody({
  name: ComponentName,
  label: Label(),
  description: Type.Optional(Type.Union([Description(), Type.Null()])),
  template: Template({ description: 'Liquid and HTML' }),
  field_definitions: Type.Array(ref(FieldDefinition), { maxItems: 200 }),
  container: Type.Optional(
    Type.Boolean({ description: 'The one component that wraps every email: must contain {{children}}' }),
  ),
  deprecated: Type.Optional(Type.Boolean()),
  feed_id: Type.Optional(ComponentFeedId),
});

export const UpdateComponentBody = RequestBody({
  name: Type.Optional(ComponentName),
  label: Type.Optional(Label()),
  description: Type.Optional(Type.Union([Description(), Type.Null()])),
  template: Type.Optional(Template()),
  field_definitions: Type.Optional(Type.Array(ref(FieldDefinition), { maxItems: 200 })),
  deprecated: Type.Optional(Type.Boolean()),
  feed_id: Type.Optional(ComponentFeedId),
});

export const ReorderComponentsBody = RequestBody({
  component_ids: Type.Array(Id(), {
    uniqueItems: true,
    maxItems: 1000,
    description: 'Every component of the system except the container, in the new order',
  }),
});

export const ListComponentsQuery = Type.Object({
  ...PaginationQuery.properties,
  brand_profile_id: Type.Optional(Id({ description: 'Show the components as this brand sees them' })),
});

export const SystemParams = Type.Object({ workspace_id: Id(), email_design_system_id: Id() });
export const ComponentParams = Type.Object({ ...SystemParams.properties, id: Id() });
