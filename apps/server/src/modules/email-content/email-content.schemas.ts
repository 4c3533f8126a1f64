import { localeCodes, maxComponentInstances, translationStatuses } from '@letterset/core';
import { Type } from 'typebox';
import { ContentValue, Id, Name, Text, Uuid } from '../../http/schemas.ts';

/** One of the 53 locale codes an email can be written in. */
export const Locale = Type.Enum([...localeCodes], {
  $id: 'Locale',
  description: 'A locale code: one of the 53 Letterset supports',
  examples: ['en-US'],
});

/** Where a locale's value came from; absent in content stored before statuses existed. */
export const TranslationStatus = Type.Enum([...translationStatuses], {
  description:
    'Where a value of a locale came from: `copied` from another locale (when the locale was added, or with Copy from…) and not changed since; `translated` by AI translation or a translation file; `edited` by a person in that locale. The untranslated pre-send check warns about copied values and blank ones, never about translated or edited ones. Absent: unknown, judged by comparing the text with the default locale’s',
});

/** A link tracking parameter's value, as typed in the editor. */
const LinkTrackingValue = Text();

const FieldValue = Type.Object(
  {
    value: Type.Union([ContentValue(), Type.Number(), Type.Boolean(), Type.Null()]),
    link_tracking_parameters: Type.Optional(Type.Record(Type.String(), LinkTrackingValue)),
    translation_status: Type.Optional(TranslationStatus),
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
    id: Uuid({ description: 'The instance’s own id, unique in its email' }),
    name: Type.Optional(Name({ minLength: 0 })),
    component_id: Id(),
    conditional_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    field_values: BranchedFieldValues,
    hidden_from_locales: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
  },
  { additionalProperties: false },
);
/** Subject or preheader: branch → locale → text. */
export const BranchedText = Type.Object(
  {
    conditional_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    branch_content: Type.Record(Type.String(), Type.Record(Type.String(), Text())),
    translation_status: Type.Optional(
      Type.Record(Type.String(), Type.Record(Type.String(), TranslationStatus), {
        description:
          'branch → locale → the translation status of that text (copied, translated or edited, as on field values)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A body of component instances: what layouts hold and emails start from. */
export const InstancesContent = Type.Object(
  {
    container_component_instance: BranchedInstance,
    component_instances: Type.Array(BranchedInstance, {
      maxItems: maxComponentInstances,
      description: `At most ${maxComponentInstances} instances (see Limits)`,
    }),
  },
  { additionalProperties: false },
);

/** An email's whole content: subject, preheader, the container and the instances inside it. */
export const EmailContent = Type.Object(
  {
    subject: BranchedText,
    preheader: BranchedText,
    container_component_instance: BranchedInstance,
    component_instances: Type.Array(BranchedInstance, {
      maxItems: maxComponentInstances,
      description: `At most ${maxComponentInstances} instances (see Limits)`,
    }),
    global_link_tracking_parameters: Type.Optional(
      Type.Record(Type.String(), LinkTrackingValue, {
        description: 'Values of the link tracking profile’s editor_global_field_value parameters',
      }),
    ),
  },
  { additionalProperties: false, $id: 'EmailContent' },
);
