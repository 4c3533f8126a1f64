import { Type } from 'typebox';
import { Id, IdParams, Label, RequestBody, Text, Timestamp } from '../../http/schemas.ts';

const ProfileValues = Type.Record(Type.String(), Text(), {
  description: 'Dynamic content profile id → what an export with that profile emits, e.g. {{firstName}}',
  examples: [{ '4f7c1b9e-2a3d-4c5e-8f90-1a2b3c4d5e6f': '%%=v(@firstName)=%%' }],
});

export const PersonalizationTag = Type.Object(
  {
    id: Type.Integer(),
    label: Type.String(),
    token: Type.String({
      description: 'What stands for the tag inside text, rich text, url, subject and preheader values',
      examples: ['{tag:12}'],
    }),
    default_value: Type.String({
      description: 'Exported when the export has no profile, or none of this tag',
    }),
    example_value: Type.String({ description: 'Shown in previews' }),
    dynamic_content_profile_values: ProfileValues,
    organization_id: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'PersonalizationTag' },
);

export const CreatePersonalizationTagBody = RequestBody({
  label: Label(),
  default_value: Text(),
  example_value: Text(),
  dynamic_content_profile_values: Type.Optional(ProfileValues),
});

export const UpdatePersonalizationTagBody = RequestBody({
  label: Type.Optional(Label()),
  default_value: Type.Optional(Text()),
  example_value: Type.Optional(Text()),
  dynamic_content_profile_values: Type.Optional(ProfileValues),
});

export const PersonalizationTagParams = Type.Object({ workspace_id: Id(), ...IdParams.properties });
