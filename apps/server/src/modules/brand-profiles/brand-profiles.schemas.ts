import { Type } from 'typebox';
import { ContentValue, Id, Identifier, Label, Name, RequestBody, Timestamp } from '../../http/schemas.ts';
import { CustomStyle } from '../email-design-systems/email-design-systems.schemas.ts';

const FieldOverride = Type.Object(
  {
    liquid_variable: Identifier({ description: 'The field to override' }),
    default_value: Type.Optional(Type.Union([ContentValue(), Type.Number(), Type.Boolean()])),
    hidden_in_editor: Type.Optional(Type.Boolean()),
    hidden_from_ai: Type.Optional(Type.Boolean()),
    label: Type.Optional(Label()),
  },
  { additionalProperties: false },
);

const ComponentOverride = Type.Object(
  {
    component_id: Id(),
    hidden: Type.Boolean({
      description: 'Hide the component for this brand: not offered, and skipped when rendering',
    }),
    field_overrides: Type.Array(FieldOverride, { maxItems: 200 }),
  },
  { additionalProperties: false },
);

const Overrides = Type.Array(ComponentOverride, { maxItems: 500 });
const Tokens = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Deep-merged over the design system’s tokens',
});

export const BrandProfile = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email_design_system_id: Type.Integer(),
    design_tokens: Tokens,
    custom_styles: Type.Array(CustomStyle, {
      description: 'Added to, or replacing by name, the system’s custom styles',
    }),
    component_overrides: Overrides,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'BrandProfile' },
);

export const CreateBrandProfileBody = RequestBody({
  name: Name(),
  component_overrides: Overrides,
  design_tokens: Type.Optional(Tokens),
  custom_styles: Type.Optional(Type.Array(CustomStyle, { maxItems: 100 })),
});

export const UpdateBrandProfileBody = RequestBody({
  name: Type.Optional(Name()),
  component_overrides: Type.Optional(Overrides),
  design_tokens: Type.Optional(Tokens),
  custom_styles: Type.Optional(Type.Array(CustomStyle, { maxItems: 100 })),
});

export const BrandProfilesParams = Type.Object({ workspace_id: Id(), email_design_system_id: Id() });
export const BrandProfileParams = Type.Object({ ...BrandProfilesParams.properties, id: Id() });
