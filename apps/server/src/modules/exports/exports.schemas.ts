import { Type } from 'typebox';
import { emailStatuses, exportStatuses, exportTypes } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import {
  Id,
  Identifier,
  Name,
  RequestBody,
  ref,
  Text,
  Timestamp,
  WorkspaceIdParams,
} from '../../http/schemas.ts';
import { Locale } from '../email-content/email-content.schemas.ts';
import { PreSendProblem } from '../emails/emails.schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

export const imageModes = ['use_cdn', 'include_in_zip'] as const;

export const ExportType = Type.Enum([...exportTypes], {
  description:
    'html: a zip with a folder per locale (HTML with CSS inlined, plain text, and with include_in_zip the ' +
    'images); json: the outputs as one JSON document; pdf: one PDF with a page per locale; connector: ' +
    'each locale pushed to a sending platform',
});

export const PreSendCheckResult = Type.Object(
  {
    ready: Type.Boolean({ description: 'No blocking problem: the email may be exported' }),
    blocking_count: Type.Integer(),
    warning_count: Type.Integer(),
    problems: Type.Array(ref(PreSendProblem)),
  },
  {
    $id: 'PreSendCheckResult',
    description:
      'Blocking: field validation errors (translation_too_long for a translation longer than its field), ' +
      'render errors, links that are empty, not http(s) or mailto:, or not a complete address. Warnings: ' +
      'images without alt text, HTML over 102 KB (Gmail clips it), a missing subject or preheader, values ' +
      'not translated from the default locale, a right-to-left locale whose HTML sets no dir="rtl". An export ' +
      'for a dynamic content profile is blocked by missing_conditional_syntax when a conditional the email ' +
      'uses has no syntax for the profile. The HTML is checked as each audience gets it: one render per locale ' +
      'and per branch of each conditional used (the other conditionals at their default branch), at most 20 ' +
      'per locale (audiences_not_checked warns about the rest); an export for a profile also checks its ' +
      'compiled HTML.',
  },
);

const perLocaleOptions = Type.Object(
  {
    resource_name: Type.Optional(Name({ description: 'The name of what the locale is exported as' })),
    update_previous_export: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const exportOptionsProperties = {
  image_mode: Type.Optional(
    Type.Enum([...imageModes], {
      description:
        'use_cdn (the default): library images by their absolute public URL; include_in_zip (html only): ' +
        'the images in each locale’s folder of the zip, the HTML pointing at them by relative path. Images ' +
        'given by URL stay as they are.',
    }),
  ),
  locales: Type.Array(ref(Locale), {
    minItems: 1,
    maxItems: 60,
    uniqueItems: true,
    description: 'Locales of the email to export, in this order',
  }),
  folder_id: Type.Optional(Text({ description: 'For connector exports: the folder to export to' })),
  campaign_id: Type.Optional(Text({ description: 'For connector exports: the campaign to export to' })),
  export_field_values: Type.Optional(
    Type.Record(Identifier(), Text(), { maxProperties: 50, description: 'Connector-specific fields' }),
  ),
  per_locale_options: Type.Optional(
    Type.Record(Identifier({ maxLength: 10 }), perLocaleOptions, {
      maxProperties: 60,
      description: 'Per locale code: the exported resource’s name, and whether to update the previous export',
    }),
  ),
};

export const ExportOptions = Type.Object(exportOptionsProperties, { $id: 'ExportOptions' });

export const ExportMetadata = Type.Object({
  conditional_ids: Type.Array(Type.Integer()),
  personalization_tag_ids: Type.Array(Type.Integer()),
  image_ids: Type.Array(Type.String(), { description: 'Library images the exported HTML shows' }),
});

export const DeliveredResource = Type.Object(
  {
    external_id: Type.String({ description: 'Its id on the platform' }),
    resource_name: Type.String({ description: 'Its name on the platform' }),
    updated: Type.Boolean({ description: 'true: an existing one was updated; false: the export created it' }),
    open_url: Type.Union([Type.String(), Type.Null()], { description: 'Where it opens on the platform' }),
  },
  { description: 'What a connector export made or updated on the sending platform for one locale' },
);

const DownloadUrl = (what: string) =>
  Type.Union([Type.String(), Type.Null()], {
    description: `${what}, once completed: an API address that needs the same sign-in or API key as the rest of the API`,
  });

export const Export = Type.Object(
  {
    id: Type.Integer(),
    organization_id: Type.Integer(),
    workspace_id: Type.Integer(),
    connector_id: Type.Union([Type.Integer(), Type.Null()]),
    email_id: Type.Integer(),
    email: Type.Object({
      id: Type.Integer(),
      name: Type.String({ description: 'The email’s name when exported' }),
      status: Type.Enum([...emailStatuses], { description: 'The email’s status when exported' }),
    }),
    dynamic_content_profile_id: Type.Union([Type.String(), Type.Null()]),
    status: Type.Enum([...exportStatuses]),
    export_type: ExportType,
    options: ref(ExportOptions),
    integration_name: Type.Union([Type.String(), Type.Null()], {
      description: 'For connector exports: the sending platform (iterable, salesforce_marketing_cloud)',
    }),
    platform: Type.Union([Type.String(), Type.Null()], {
      description: 'For connector exports: the sending platform’s name, as people know it (“Iterable”)',
    }),
    delivered_resources: Type.Record(Type.String(), DeliveredResource, {
      description:
        'For connector exports, per locale: the template (Iterable) or email asset (Salesforce Marketing ' +
        'Cloud) the export created or updated; filled in for each locale the platform took, also when ' +
        'others were refused',
    }),
    metadata: ExportMetadata,
    export_errors: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'Locale (or base, for the export as a whole) → what went wrong there',
    }),
    warnings: Type.Array(ref(PreSendProblem), { description: 'The pre-send check warnings, as exported' }),
    progress: Type.Object({
      locales_done: Type.Integer(),
      locales_total: Type.Integer(),
    }),
    created_by: Type.Union([ref(UserReference), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Type.Union([Timestamp, Type.Null()]),
    download_zip_url: DownloadUrl('The zip of an html export'),
    download_json_url: DownloadUrl('The JSON document of a json export'),
    download_pdf_url: DownloadUrl('The PDF of a pdf export'),
    open_in_integration_url: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'Export' },
);

export const ExportOutput = Type.Object({
  email_id: Type.Integer(),
  name: Type.String(),
  html: Type.String(),
  subject: Type.String(),
  preheader: Type.String(),
  locale: ref(Locale),
  plain_text: Type.String(),
});

export const ExportData = Type.Object(
  {
    email_name: Type.String(),
    email_id: Type.Integer(),
    outputs: Type.Array(ExportOutput),
  },
  { $id: 'ExportData' },
);

export const CreateExportBody = RequestBody({
  email_id: Id(),
  export_type: ExportType,
  connector_id: Type.Optional(
    Type.Union([Id(), Type.Null()], { description: 'Required for connector exports' }),
  ),
  dynamic_content_profile_id: Type.Optional(
    Type.Union([Identifier(), Type.Null()], {
      description:
        'Compile conditionals, personalization tags and link tracking in this profile’s syntax; null resolves them with their defaults',
    }),
  ),
  options: Type.Object(exportOptionsProperties, { additionalProperties: false }),
});

export const ListExportsQuery = Type.Object({
  ...PaginationQuery.properties,
  email_id: Type.Optional(Id()),
  status: Type.Optional(Type.Enum([...exportStatuses])),
});

export const ChecksQuery = Type.Object({
  locale: Type.Optional(ref(Locale)),
  dynamic_content_profile_id: Type.Optional(Identifier()),
});

export const ExportsParams = WorkspaceIdParams;
export const ExportParams = Type.Object({ workspace_id: Id(), id: Id() });
export const EmailChecksParams = Type.Object({ workspace_id: Id(), id: Id() });
