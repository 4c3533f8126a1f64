import { conditionJoiners, templateEnginePresets } from '@letterset/core';
import { Type } from 'typebox';
import { Id, Name, RequestBody, Timestamp, Uuid } from '../../http/schemas.ts';

const Operator = Type.Object({ key: Type.String(), requires_value: Type.Boolean() });

export const TemplateEnginePresetSchema = Type.Object(
  {
    joiners: Type.Array(Type.Enum([...conditionJoiners]), {
      description: 'How conditions of one branch can be combined; empty means one condition per branch',
    }),
    operators_by_type: Type.Object({
      string: Type.Array(Operator),
      number: Type.Array(Operator),
      boolean: Type.Array(Operator),
    }),
  },
  { description: 'What the preset picker offers for this profile' },
);

const Preset = Type.Union([Type.Enum([...templateEnginePresets]), Type.Null()], {
  description:
    'liquid (Braze-style Liquid), handlebars (Iterable), ampscript (Salesforce Marketing Cloud), or null (syntax written by hand)',
});

export const DynamicContentProfile = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    organization_id: Type.Integer(),
    template_engine_preset: Preset,
    template_engine_preset_schema: Type.Union([TemplateEnginePresetSchema, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'DynamicContentProfile' },
);

export const CreateDynamicContentProfileBody = RequestBody({
  name: Name(),
  template_engine_preset: Type.Optional(Preset),
});

export const UpdateDynamicContentProfileBody = RequestBody({
  name: Type.Optional(Name()),
  template_engine_preset: Type.Optional(Preset),
});

export const DynamicContentProfileParams = Type.Object({
  workspace_id: Id(),
  id: Uuid(),
});
