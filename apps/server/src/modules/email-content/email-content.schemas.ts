import { localeCodes } from '@letterset/core';
import { Type } from 'typebox';

/** One of the 53 locale codes an email can be written in. */
export const Locale = Type.Enum([...localeCodes], {
  $id: 'Locale',
  description: 'A locale code: one of the 53 Letterset supports',
  examples: ['en-US'],
});

const FieldValue = Type.Object(
  {
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    link_tracking_parameters: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);
const BranchedFieldValues = Type.Record(
  Type.String(),
  Type.Record(Type.String(), Type.Record(Type.String(), FieldValue)),
  {
    description: 'branch key (null_branch without a conditional) → locale → liquid_variable → {value}',
  },
);
/** A component instance: its component, and its values by branch, locale and field. */
export const BranchedInstance = Type.Object(
  {
    id: Type.String({ maxLength: 64 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    component_id: Type.Integer({ minimum: 1 }),
    conditional_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    field_values: BranchedFieldValues,
    hidden_from_locales: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
  },
  { additionalProperties: false },
);
/** Subject or preheader: branch → locale → text. */
export const BranchedText = Type.Object(
  {
    conditional_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    branch_content: Type.Record(Type.String(), Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

/** A body of component instances: what layouts hold and emails start from. */
export const InstancesContent = Type.Object(
  {
    container_component_instance: BranchedInstance,
    component_instances: Type.Array(BranchedInstance, { maxItems: 500 }),
  },
  { additionalProperties: false },
);

/** An email's whole content: subject, preheader, the container and the instances inside it. */
export const EmailContent = Type.Object(
  {
    subject: BranchedText,
    preheader: BranchedText,
    container_component_instance: BranchedInstance,
    component_instances: Type.Array(BranchedInstance, { maxItems: 500 }),
    global_link_tracking_parameters: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Values of the link tracking profile’s editor_global_field_value parameters',
      }),
    ),
  },
  { additionalProperties: false, $id: 'EmailContent' },
);
