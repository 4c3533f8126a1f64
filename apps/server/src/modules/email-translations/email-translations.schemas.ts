import { Type } from 'typebox';
import { Id, RequestBody, ref, Timestamp } from '../../http/schemas.ts';
import { Locale } from '../email-content/email-content.schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

const TranslationStatus = Type.Enum(['in_progress', 'completed', 'failed']);

export const LocaleTranslationStatus = Type.Object(
  {
    status: TranslationStatus,
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the locale failed, in plain words (the provider’s refusal, the email in review)',
    }),
    translated_values: Type.Union([Type.Integer(), Type.Null()], {
      description: 'How many values were written, once completed',
    }),
    refused_values: Type.Array(
      Type.Object({
        key: Type.String({ description: 'The translatable value’s key, as in the translation spreadsheet' }),
        reason: Type.String(),
      }),
      {
        description:
          'Values left untranslated: the model’s answer broke protected markup (Liquid, personalization tags, HTML, links) or the field’s validations, even after repairs',
      },
    ),
  },
  { $id: 'LocaleTranslationStatus' },
);

export const EmailTranslation = Type.Object(
  {
    id: Type.Integer(),
    email_id: Type.Integer(),
    status: Type.Enum(['in_progress', 'completed', 'failed'], {
      description: '`in_progress` while any locale is; then `completed` when every locale is, else `failed`',
    }),
    source_locale: ref(Locale),
    target_locales: Type.Array(ref(Locale)),
    locale_statuses: Type.Record(Type.String(), ref(LocaleTranslationStatus), {
      description: 'Per target locale, its own job’s status',
    }),
    ai_agent_id: Type.Union([Type.Integer(), Type.Null()]),
    created_by: Type.Union([ref(UserReference), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'EmailTranslation' },
);

export const EmailTranslationsParams = Type.Object({ workspace_id: Id(), email_id: Id() });
export const EmailTranslationParams = Type.Object({ workspace_id: Id(), email_id: Id(), id: Id() });

export const CreateEmailTranslationBody = RequestBody({
  target_locales: Type.Array(ref(Locale), {
    minItems: 1,
    maxItems: 52,
    uniqueItems: true,
    description:
      'Locales to translate into from the email’s default locale. A locale new to the email is added (needs add_remove_locales_from_emails)',
  }),
  ai_agent_id: Type.Optional(
    Type.Union([Id(), Type.Null()], { description: 'The agent whose guidelines and vocabulary to follow' }),
  ),
});
