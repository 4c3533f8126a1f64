import { localeCodes, preSendProblemCodes } from '@letterset/core';
import { Type } from 'typebox';
import { aiGenerationStatuses, emailStatuses } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import {
  ErrorCodeSchema,
  Id,
  Identifier,
  limits,
  Name,
  Prompt,
  RequestBody,
  ref,
  SearchText,
  Timestamp,
  WorkspaceIdParams,
} from '../../http/schemas.ts';
import { singleLinePattern } from '../../http/validation-messages.ts';
import { EmailContent, Locale } from '../email-content/email-content.schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

/** A problem the pre-send checks found: what exports, reviews and publishing report. */
export const PreSendProblem = Type.Object(
  {
    code: Type.Enum(Object.values(preSendProblemCodes)),
    severity: Type.Enum(['blocking', 'warning'], {
      description: 'blocking problems refuse an export; warnings are kept with it',
    }),
    locale: Type.Union([ref(Locale), Type.Null()]),
    branch: Type.Union([Type.String(), Type.Null()], {
      description:
        'The branch key for content under a conditional, null_branch otherwise; null when unknown or when ' +
        'every audience shows the problem. Problems of the rendered HTML are found per audience (the readers ' +
        'of one branch) and carry the branch whose content has them.',
    }),
    conditional_id: Type.Optional(
      Type.Integer({
        description: 'The conditional the branch belongs to, when known (absent otherwise)',
      }),
    ),
    component_instance_id: Type.Union([Type.String(), Type.Null()]),
    message: Type.String(),
  },
  { $id: 'PreSendProblem' },
);

export const EmailStatus = Type.Enum([...emailStatuses], {
  description: 'draft → in_review → changes_requested / approved → published; convert_to_draft goes back',
});

const emailFields = {
  id: Type.Integer(),
  status: EmailStatus,
  name: Type.String(),
  project_id: Type.Integer(),
  organization_id: Type.Integer(),
  email_design_system_id: Type.Integer(),
  brand_profile_id: Type.Union([Type.Integer(), Type.Null()]),
  link_tracking_profile_id: Type.Union([Type.Integer(), Type.Null()]),
  ai_agent_id: Type.Union([Type.Integer(), Type.Null()]),
  default_locale: ref(Locale),
  locales: Type.Array(ref(Locale)),
  lock_version: Type.Integer({
    description:
      'The content version this email is at. Send it back with a PATCH: a stale one is answered 409',
  }),
  create_with_ai: Type.Boolean(),
  prompt: Type.Union([Type.String(), Type.Null()]),
  ai_generation_status: Type.Union([Type.Enum([...aiGenerationStatuses]), Type.Null()], {
    description:
      '`generating` while AI writes the content (create_with_ai, clone_with_ai; content edits are refused meanwhile), then `done`, or `failed` when the AI could not do all of it (see ai_generation_error; the email keeps its brief and can be generated again with the retry operation); null for emails made by hand',
  }),
  ai_generation_error: Type.Union([Type.String(), Type.Null()], {
    description:
      'With `failed`: what the AI could not do, in plain words: nothing written (the provider refused or was unavailable), or values that failed their validations (left at their defaults, named by their labels)',
  }),
  last_updated_by: Type.Union([ref(UserReference), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const EmailSummary = Type.Object(emailFields, {
  $id: 'EmailSummary',
  description: 'An email as lists show it: everything but its content',
});

export const Email = Type.Object({ ...emailFields, email_content: ref(EmailContent) }, { $id: 'Email' });

export const EmailConflict = Type.Object(
  {
    message: Type.String(),
    code: ref(ErrorCodeSchema),
    lock_version: Type.Integer({ description: 'The current version; the write named an older one' }),
    email: ref(Email),
  },
  {
    $id: 'EmailConflict',
    description: 'Someone saved this email since you loaded it. Nothing was written; here is what is current',
  },
);

const OptionalId = Type.Optional(Type.Union([Id(), Type.Null()]));
const Locales = Type.Array(ref(Locale), { minItems: 1, maxItems: 53, uniqueItems: true });

export const CreateEmailBody = RequestBody({
  name: Name(),
  email_design_system_id: Id(),
  project_id: Id(),
  default_locale: Type.Optional(ref(Locale)),
  locales: Type.Optional(Locales),
  brand_profile_id: OptionalId,
  layout_id: Type.Optional(
    Id({ description: 'Start from a copy of this layout’s content (same design system)' }),
  ),
  link_tracking_profile_id: OptionalId,
  ai_agent_id: OptionalId,
  create_with_ai: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'Write the content with AI from `prompt`: the email is created at once with `ai_generation_status: generating` and filled in by a background job. With `layout_id` the layout’s sections are kept and their values written; without, the AI chooses components by their descriptions',
    }),
  ),
  prompt: Type.Optional(Prompt({ description: 'The brief, with create_with_ai' })),
});

export const UpdateEmailBody = RequestBody({
  name: Type.Optional(Name()),
  project_id: Type.Optional(Id({ description: 'Move the email to another project' })),
  email_content: Type.Optional(ref(EmailContent)),
  default_locale: Type.Optional(ref(Locale)),
  locales: Type.Optional(Locales),
  source_locale: Type.Optional(
    Type.Enum([...localeCodes], {
      description:
        'With locales that add a locale: the locale each new locale starts as a copy of (texts, images, links, every branch, the subject and the preheader), each value marked translation_status copied; values the request gives a new locale are kept. Defaults to the default locale. A value changed from copied without a status of its own becomes edited',
    }),
  ),
  brand_profile_id: OptionalId,
  link_tracking_profile_id: OptionalId,
  ai_agent_id: OptionalId,
  lock_version: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: limits.largestId,
      description:
        'The lock_version you loaded. When it is no longer current the answer is 409 and nothing is saved',
    }),
  ),
});

export const ListEmailsQuery = Type.Object({
  ...PaginationQuery.properties,
  project_id: Type.Optional(Id()),
  status: Type.Optional(EmailStatus),
  ai_generation_status: Type.Optional(
    Type.Enum([...aiGenerationStatuses], {
      description:
        'Only emails whose AI generation is at this status (`failed`: those to look at or try again)',
    }),
  ),
  search: Type.Optional(SearchText({ description: 'Part of the name, any case' })),
  awaiting_my_review: Type.Optional(
    Type.Boolean({
      description: 'true: only emails in review whose current stage waits on your decision',
    }),
  ),
  submitted_by_me: Type.Optional(
    Type.Boolean({ description: 'true: only emails whose approval workflow you submitted' }),
  ),
});

export const EmailVersion = Type.Object(
  {
    version_id: Type.String(),
    email_data: Type.Object({ email_content: ref(EmailContent), locales: Type.Array(ref(Locale)) }),
    created_at: Timestamp,
    last_updated_by: Type.Union([ref(UserReference), Type.Null()]),
    ai_feature: Type.Union([Type.String(), Type.Null()], {
      description:
        'The AI feature that wrote this version (`email_generation`, `email_clone`, `translation`) on behalf of last_updated_by; null for a person’s edit',
    }),
    name: Type.Union([Type.String(), Type.Null()], {
      description: 'What people call this version (e.g. “Sent to legal”); null when unnamed',
    }),
    restored_from_version_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The version whose content this one restored; null unless a restore wrote it',
    }),
  },
  { $id: 'EmailVersion' },
);

export const versionNameLength = 100;

export const NameEmailVersionBody = RequestBody({
  name: Type.Union(
    [
      Type.String({
        maxLength: limits.name,
        pattern: singleLinePattern,
        description: `Trimmed; 1 to ${versionNameLength} characters`,
      }),
      Type.Null(),
    ],
    { description: 'The version’s name; null clears it' },
  ),
});

export const EmailHistoryEntry = Type.Object(
  {
    kind: Type.Union(
      [
        Type.Literal('created'),
        Type.Literal('editing_session'),
        Type.Literal('ai_feature'),
        Type.Literal('restore'),
      ],
      {
        description:
          'created: the first version (the email as created); editing_session: consecutive saves by one ' +
          'person, none over 30 minutes after the one before, nobody else’s in between; ai_feature: one ' +
          'version an AI feature wrote; restore: one version a restore wrote',
      },
    ),
    version: ref(EmailVersion),
    first_version_id: Type.String({ description: 'The first version of the entry (version is its last)' }),
    started_at: Timestamp,
    ended_at: Timestamp,
    saves: Type.Integer({ minimum: 1, description: 'How many versions the entry groups' }),
    last_updated_by: Type.Union([ref(UserReference), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()], {
      description: 'The name of the entry’s last version: a named version ends its session',
    }),
    changes: Type.String({
      description:
        'What changed, in words, from the version before the entry to its last version (e.g. “Edited Hero ' +
        'headline in de-DE, added Footer”), capped with “and N more changes”; empty when nothing did',
    }),
    change_count: Type.Integer({ minimum: 0, description: 'How many changes changes describes or counts' }),
    restored_from: Type.Union(
      [
        Type.Object({
          version_id: Type.String(),
          created_at: Type.Union([Timestamp, Type.Null()], {
            description: 'When the restored version was saved; null if it no longer exists',
          }),
          name: Type.Union([Type.String(), Type.Null()]),
        }),
        Type.Null(),
      ],
      { description: 'For a restore: the version it restored' },
    ),
  },
  { $id: 'EmailHistoryEntry' },
);

export const ContentValidationResult = Type.Object(
  {
    valid: Type.Boolean(),
    validation_errors: Type.Record(Type.String(), Type.Record(Type.String(), Type.Array(Type.String())), {
      description:
        'Instance id (or subject) → "branch.locale.liquid_variable" (or "branch.locale") → messages',
    }),
  },
  { $id: 'ContentValidationResult' },
);

export const PublishBody = RequestBody({
  force: Type.Optional(
    Type.Boolean({
      description:
        'Publish from any status (needs force_publish_emails), overriding blocking pre-send problems named in acknowledged_problems',
      default: false,
    }),
  ),
  acknowledged_problems: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), {
      maxItems: 1000,
      description:
        'Ours, with force: true: the codes of the blocking pre-send problems the caller confirmed overriding, one per ' +
        'problem (as the refusal listed them). Needed when there are blocking problems; 409 when they are not the ' +
        'ones found now',
    }),
  ),
});

export const PublishedEmail = Type.Object(
  {
    ...Email.properties,
    pre_send_warnings: Type.Array(ref(PreSendProblem), {
      description: 'The warnings of the pre-send checks the publish ran',
    }),
    overridden_problems: Type.Array(ref(PreSendProblem), {
      description: 'The blocking problems a force publish overrode (empty otherwise)',
    }),
  },
  { $id: 'PublishedEmail', description: 'The published email, with what its pre-send checks found' },
);

export const CloneEmailBody = RequestBody({
  name: Name(),
  clone_with_ai: Type.Optional(Type.Boolean({ default: false })),
  prompt: Type.Optional(Prompt()),
  ai_agent_id: OptionalId,
});

const BranchSelection = Type.Record(Type.String(), Identifier(), {
  description: 'Conditional id → the branch key to show; others show their first branch',
});

export const RenderEmailBody = RequestBody({ branch_selection: Type.Optional(BranchSelection) });

export const RenderedEmail = Type.Object(
  {
    html: Type.String(),
    subject: Type.String(),
    preheader: Type.String(),
    plain_text: Type.String(),
  },
  { $id: 'RenderedEmail' },
);

export const TestSendBody = RequestBody({
  recipients: Type.Array(Type.String({ format: 'email', maxLength: 254 }), {
    minItems: 1,
    maxItems: 10,
    uniqueItems: true,
  }),
  locale: Type.Optional(ref(Locale)),
  branch_selection: Type.Optional(BranchSelection),
});

export const TestSendResult = Type.Object(
  {
    recipients: Type.Array(Type.String()),
    locale: ref(Locale),
    subject: Type.String({ description: 'As sent, with the [Test] prefix' }),
    delivered_via: Type.Enum(['smtp', 'outbox']),
  },
  { $id: 'TestSendResult' },
);

export const EmailsParams = WorkspaceIdParams;
export const EmailParams = Type.Object({ workspace_id: Id(), id: Id() });
export const EmailVersionParams = Type.Object({
  ...EmailParams.properties,
  version_id: Type.String({ minLength: 1, maxLength: 64 }),
});
export const EmailLocaleParams = Type.Object({ ...EmailParams.properties, locale: ref(Locale) });
