import { Type } from 'typebox';
import { Id, Identifier, IdParams, Name, RequestBody, Text, Timestamp } from '../../http/schemas.ts';

const ParameterName = Identifier({
  pattern: '^[^\\s&=#?]+$',
  description: 'The query parameter name, e.g. utm_source',
});

export const LinkTrackingParameter = Type.Union([
  Type.Object(
    { type: Type.Literal('fixed_value'), parameter: ParameterName, value: Text({ maxLength: 500 }) },
    { additionalProperties: false, description: 'The same value on every link' },
  ),
  Type.Object(
    { type: Type.Literal('editor_field_value'), parameter: ParameterName },
    {
      additionalProperties: false,
      description: 'Entered per link: the field value’s link_tracking_parameters[parameter]',
    },
  ),
  Type.Object(
    { type: Type.Literal('editor_global_field_value'), parameter: ParameterName },
    {
      additionalProperties: false,
      description: 'One value per email: the content’s global_link_tracking_parameters[parameter]',
    },
  ),
]);

const CustomTemplate = Type.Union([Text({ maxLength: 5000 }), Type.Null()], {
  description:
    'Liquid that outputs the final URL, over url (the link), parameters (name → value), query (the encoded query string) and tracked_url (the link with the parameters)',
  examples: ['https://click.example.com/r?to={{ url | url_encode }}&{{ query }}'],
});

export const LinkTrackingProfile = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    parameters: Type.Array(LinkTrackingParameter),
    custom_template: CustomTemplate,
    organization_id: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'LinkTrackingProfile' },
);

const Parameters = Type.Array(LinkTrackingParameter, { maxItems: 50 });

export const CreateLinkTrackingProfileBody = RequestBody({
  name: Name(),
  parameters: Parameters,
  custom_template: Type.Optional(CustomTemplate),
});

export const UpdateLinkTrackingProfileBody = RequestBody({
  name: Type.Optional(Name()),
  parameters: Type.Optional(Parameters),
  custom_template: Type.Optional(CustomTemplate),
});

export const LinkTrackingProfileParams = Type.Object({ workspace_id: Id(), ...IdParams.properties });
