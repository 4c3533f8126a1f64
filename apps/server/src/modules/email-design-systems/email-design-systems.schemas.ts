import { Type } from 'typebox';
import { accessScopes, aiGenerationStatuses } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import {
  Description,
  Id,
  Label,
  Name,
  Prompt,
  RequestBody,
  ref,
  SearchText,
  Template,
  Text,
  Timestamp,
  WorkspaceIdParams,
} from '../../http/schemas.ts';
import { FieldDefinition } from '../components/components.schemas.ts';

export const CustomStyle = Type.Object(
  {
    name: Type.String({
      pattern: '^[a-z][a-z0-9_-]*$',
      maxLength: 64,
      description: 'Used in class names (es-custom-style-{name}) and in fields’ custom_styles_names',
    }),
    label: Label({ description: 'Shown in the rich-text toolbar' }),
    style: Text({ examples: ['color: #0066CC; font-weight: bold;'] }),
  },
  { additionalProperties: false },
);

const DesignTokens = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'Free-form values (colours, spacing, fonts) that templates read as render_context.design_tokens',
  examples: [{ colors: { primary: '#1890ff' }, font_family: 'Helvetica, Arial, sans-serif' }],
});

export const AccessScope = Type.Enum([...accessScopes], {
  description:
    'all_workspaces: usable from every workspace, editable only from its own; this_workspace_only: invisible elsewhere',
});

export const EmailDesignSystem = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    organization_id: Type.Integer(),
    workspace_id: Type.Integer({ description: 'The workspace that owns (and alone may change) it' }),
    shared: Type.Boolean({
      description: 'True when it belongs to another workspace and is shared with this one',
    }),
    access_scope: AccessScope,
    require_brand_profile_for_use: Type.Boolean({
      description: 'Emails made with it must pick a brand profile',
    }),
    archived: Type.Boolean(),
    design_tokens: DesignTokens,
    custom_styles: Type.Array(CustomStyle),
    screenshot_url: Type.Union([Type.String(), Type.Null()]),
    upload_status: Type.Enum(['ready', 'processing']),
    create_with_ai: Type.Boolean({ description: 'Whether it was created with AI from `prompt`' }),
    prompt: Type.Union([Type.String(), Type.Null()], {
      description: 'The brief it was designed from, with create_with_ai',
    }),
    ai_generation_status: Type.Union([Type.Enum([...aiGenerationStatuses]), Type.Null()], {
      description:
        '`generating` while AI designs its components (create_with_ai), then `done`, or `failed` when the AI could not do all of it (see ai_generation_error); null for systems made by hand',
    }),
    ai_generation_error: Type.Union([Type.String(), Type.Null()], {
      description:
        'What the AI could not do when generation finished: components left out because they still had problems after two repairs, a replaced container, or the provider’s refusal',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'EmailDesignSystem' },
);

const NullableDescription = Type.Union([Description(), Type.Null()]);
const CustomStyles = Type.Array(CustomStyle, { maxItems: 100 });

export const CreateEmailDesignSystemBody = RequestBody({
  name: Name(),
  description: Type.Optional(NullableDescription),
  access_scope: AccessScope,
  require_brand_profile_for_use: Type.Optional(Type.Boolean()),
  design_tokens: Type.Optional(DesignTokens),
  custom_styles: Type.Optional(CustomStyles),
  create_with_ai: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'Design the components with AI from `prompt`: the system is created at once, without components, with `ai_generation_status: generating`; a background job then adds a container and components and sets it `done`. Needs an AI provider (Settings › AI), else 422 and nothing is created',
    }),
  ),
  prompt: Type.Optional(Prompt({ description: 'The brief, with create_with_ai' })),
  ai_agent_id: Type.Optional(
    Type.Union([Id(), Type.Null()], {
      description:
        'With create_with_ai: an AI agent of the workspace whose company, tone and guidelines the design follows',
    }),
  ),
});

export const UpdateEmailDesignSystemBody = RequestBody({
  name: Type.Optional(Name()),
  description: Type.Optional(NullableDescription),
  access_scope: Type.Optional(AccessScope),
  require_brand_profile_for_use: Type.Optional(Type.Boolean()),
  design_tokens: Type.Optional(DesignTokens),
  custom_styles: Type.Optional(CustomStyles),
  archived: Type.Optional(
    Type.Boolean({ description: 'Archived systems are hidden from lists and cannot start new emails' }),
  ),
});

export const designSystemSorts = [
  'name_asc',
  'name_desc',
  'created_at_asc',
  'created_at_desc',
  'updated_at_asc',
  'updated_at_desc',
] as const;

export const ListEmailDesignSystemsQuery = Type.Object({
  ...PaginationQuery.properties,
  archived: Type.Optional(Type.Enum(['false', 'true', 'all'], { default: 'false' })),
  include_shared: Type.Optional(
    Type.Boolean({ default: true, description: 'Include systems shared from other workspaces' }),
  ),
  sort: Type.Optional(Type.Enum([...designSystemSorts], { default: 'name_asc' })),
  search: Type.Optional(SearchText()),
});

export const WorkspaceParams = WorkspaceIdParams;
export const EmailDesignSystemParams = Type.Object({ workspace_id: Id(), id: Id() });

/** One component of the portable JSON; AI-designed components are checked against it too. */
export const DesignSystemComponentJson = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 }),
    label: Label(),
    description: Type.Optional(NullableDescription),
    template: Template(),
    field_definitions: Type.Array(ref(FieldDefinition), { maxItems: 200 }),
    deprecated: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The portable JSON of a design system: what export answers and import and sync take. */
export const DesignSystemJson = Type.Object(
  {
    email_design_system: Type.Object(
      {
        name: Name(),
        description: Type.Optional(NullableDescription),
        access_scope: Type.Optional(AccessScope),
        design_tokens: Type.Optional(DesignTokens),
        custom_styles: Type.Optional(CustomStyles),
        container_component: DesignSystemComponentJson,
        components: Type.Array(DesignSystemComponentJson, { maxItems: 500 }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'EmailDesignSystemJson', additionalProperties: false },
);

export const CloneEmailDesignSystemBody = RequestBody({ name: Type.Optional(Name()) });
