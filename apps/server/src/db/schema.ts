import type { PickerState } from '@letterset/core';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AiProviderName } from '../config.ts';
import { timestamps } from './columns.ts';

const timestampColumn = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** The tenant. Every other row belongs to exactly one organization, and every query is scoped by it. */
export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  ...timestamps,
});

/** A named set of permission keys. Built-in roles are copied into every organization and never change. */
export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    builtin: boolean('builtin').notNull().default(false),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('roles_organization_name_unique').on(table.organizationId, sql`lower(${table.name})`),
  ],
);

export const notificationKinds = [
  'mentioned_in_comment',
  'reply_in_comment_thread',
  'requested_review',
  'review_changes_requested',
  'review_approved',
  'ready_to_publish',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/**
 * A person in one organization. Invited users have no password until they accept. Removed
 * users are kept (deleted_at) so audit entries and authorship still name them.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    profileImageUrl: text('profile_image_url'),
    wantsMarketingEmails: boolean('wants_marketing_emails').notNull().default(false),
    disabledEmailNotifications: jsonb('disabled_email_notifications')
      .$type<NotificationKind[]>()
      .notNull()
      .default([]),
    /** Base32 TOTP secret; set while enrolling, active once two_factor_enabled. Never returned. */
    twoFactorSecret: text('two_factor_secret'),
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    invitationTokenHash: text('invitation_token_hash'),
    invitationExpiresAt: timestampColumn('invitation_expires_at'),
    invitationSentAt: timestampColumn('invitation_sent_at'),
    invitationAcceptedAt: timestampColumn('invitation_accepted_at'),
    deletedAt: timestampColumn('deleted_at'),
    ...timestamps,
  },
  (table) => [
    // One live account per address across the installation: sign-in is by email alone.
    uniqueIndex('users_email_unique').on(sql`lower(${table.email})`).where(sql`${table.deletedAt} is null`),
    uniqueIndex('users_invitation_token_unique').on(table.invitationTokenHash),
    index('users_organization_idx').on(table.organizationId),
  ],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** New users of the organization join this workspace automatically. */
    autoJoin: boolean('auto_join').notNull().default(false),
    ...timestamps,
  },
  (table) => [index('workspaces_organization_idx').on(table.organizationId)],
);

export const workspaceMemberships = pgTable(
  'workspace_memberships',
  {
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.userId] }),
    index('workspace_memberships_user_idx').on(table.userId),
  ],
);

export const badgeColors = [
  'white',
  'black',
  'gray',
  'red',
  'green',
  'blue',
  'yellow',
  'purple',
  'pink',
  'orange',
  'brown',
  'cyan',
  'lime',
  'teal',
  'indigo',
] as const;
export type BadgeColor = (typeof badgeColors)[number];

export const teams = pgTable(
  'teams',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    badgeColor: text('badge_color').$type<BadgeColor>().notNull(),
    ...timestamps,
  },
  (table) => [index('teams_workspace_idx').on(table.workspaceId)],
);

export const teamMemberships = pgTable(
  'team_memberships',
  {
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    primaryKey({ columns: [table.teamId, table.userId] }),
    index('team_memberships_user_idx').on(table.userId),
  ],
);

/** A signed-in browser. The cookie holds a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
    lastSeenAt: timestampColumn('last_seen_at').notNull().defaultNow(),
    expiresAt: timestampColumn('expires_at').notNull(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/**
 * Attempts an attempt limiter let through (sign-ins), per source (an address) and subject (an
 * account). Each is reserved here before the password is checked, under a lock per source, so
 * parallel guesses count as they start on every server process sharing the database; a success
 * deletes its row, so the rows left are failures and attempts still under way. Keys are stored
 * as SHA-256 digests: the table says how often something failed, not which email or address it
 * was. Rows older than the window are deleted as new failures come in.
 */
export const limitedAttempts = pgTable(
  'limited_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Which limiter counted it, e.g. `sign_in`. */
    limiter: text('limiter').notNull(),
    sourceDigest: text('source_digest').notNull(),
    subjectDigest: text('subject_digest').notNull(),
    attemptedAt: timestampColumn('attempted_at').notNull(),
  },
  (table) => [
    index('limited_attempts_source_idx').on(
      table.limiter,
      table.sourceDigest,
      table.subjectDigest,
      table.attemptedAt,
    ),
    index('limited_attempts_age_idx').on(table.limiter, table.attemptedAt),
  ],
);

/** A secret for the API, acting as its creator. Shown once; only its SHA-256 is stored. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** The key's first characters, enough to tell keys apart in a list. */
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    lastUsedAt: timestampColumn('last_used_at'),
    revokedAt: timestampColumn('revoked_at'),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('api_keys_token_unique').on(table.tokenHash),
    index('api_keys_organization_idx').on(table.organizationId),
  ],
);

/** Every write made through the API: who, how, what, when. */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id),
    apiKeyId: integer('api_key_id').references(() => apiKeys.id),
    authMethod: text('auth_method').$type<'session' | 'api_key' | 'mcp_oauth'>().notNull(),
    /** `read` only for MCP tool calls: the API's own reads are not recorded. */
    action: text('action').$type<'create' | 'update' | 'delete' | 'read'>().notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    statusCode: integer('status_code').notNull(),
    requestId: text('request_id').notNull(),
    /** What a service adds that the request line cannot say: a force publish's overridden problems. */
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    index('audit_logs_organization_created_idx').on(table.organizationId, table.createdAt),
    index('audit_logs_organization_resource_idx').on(table.organizationId, table.resourceType),
  ],
);

/** An image in a workspace's library. Ids are strings (`img_…`), as the API promises. */
export const images = pgTable(
  'images',
  {
    id: text('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** The name of the file as uploaded, for people; storage uses its own key. */
    filename: text('filename').notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    fileSize: integer('file_size').notNull(),
    extension: text('extension').notNull(),
    animated: boolean('animated').notNull().default(false),
    uploadedById: integer('uploaded_by_id').references(() => users.id),
    ...timestamps,
  },
  (table) => [index('images_workspace_created_idx').on(table.workspaceId, table.createdAt)],
);

export const aiGenerationStatuses = ['generating', 'done', 'failed'] as const;
export type AiGenerationStatus = (typeof aiGenerationStatuses)[number];

export const accessScopes = ['all_workspaces', 'this_workspace_only'] as const;
export type AccessScope = (typeof accessScopes)[number];

/** A library of components. Shared (all_workspaces) systems are usable everywhere, editable only at home. */
export const emailDesignSystems = pgTable(
  'email_design_systems',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    accessScope: text('access_scope').$type<AccessScope>().notNull(),
    requireBrandProfileForUse: boolean('require_brand_profile_for_use').notNull().default(false),
    archived: boolean('archived').notNull().default(false),
    designTokens: jsonb('design_tokens').$type<Record<string, unknown>>().notNull().default({}),
    customStyles: jsonb('custom_styles')
      .$type<{ name: string; label: string; style: string }[]>()
      .notNull()
      .default([]),
    screenshotUrl: text('screenshot_url'),
    createWithAi: boolean('create_with_ai').notNull().default(false),
    prompt: text('prompt'),
    aiGenerationStatus: text('ai_generation_status').$type<AiGenerationStatus>(),
    aiGenerationError: text('ai_generation_error'),
    createdById: integer('created_by_id').references(() => users.id),
    ...timestamps,
  },
  (table) => [
    index('email_design_systems_workspace_idx').on(table.workspaceId),
    index('email_design_systems_organization_scope_idx').on(table.organizationId, table.accessScope),
  ],
);

/** The field definitions as stored: the reference's snake_case keys, validated by core. */
type StoredFieldDefinitions = Record<string, unknown>[];

/** A component of a design system; exactly one per system is its container. */
export const components = pgTable(
  'components',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    emailDesignSystemId: integer('email_design_system_id')
      .notNull()
      .references(() => emailDesignSystems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    description: text('description'),
    container: boolean('container').notNull().default(false),
    template: text('template').notNull(),
    fieldDefinitions: jsonb('field_definitions').$type<StoredFieldDefinitions>().notNull(),
    /** Order in the palette; the container has none. */
    position: integer('position'),
    deprecated: boolean('deprecated').notNull().default(false),
    feedId: integer('feed_id'),
    screenshotUrl: text('screenshot_url'),
    lastUpdatedById: integer('last_updated_by_id').references(() => users.id),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('components_system_name_unique').on(table.emailDesignSystemId, table.name),
    uniqueIndex('components_one_container_per_system')
      .on(table.emailDesignSystemId)
      .where(sql`${table.container}`),
  ],
);

/** Every saved state of a component, newest last: what it looked like, who saved it, when. */
export const componentVersions = pgTable(
  'component_versions',
  {
    id: serial('id').primaryKey(),
    componentId: integer('component_id')
      .notNull()
      .references(() => components.id, { onDelete: 'cascade' }),
    versionId: text('version_id').notNull(),
    componentData: jsonb('component_data')
      .$type<{ name: string; label: string; template: string; field_definitions: StoredFieldDefinitions }>()
      .notNull(),
    lastUpdatedById: integer('last_updated_by_id').references(() => users.id),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('component_versions_component_idx').on(table.componentId, table.createdAt)],
);

export interface StoredComponentOverride {
  component_id: number;
  hidden: boolean;
  field_overrides: {
    liquid_variable: string;
    default_value?: string | number | boolean;
    hidden_in_editor?: boolean;
    hidden_from_ai?: boolean;
    label?: string;
  }[];
}

/** A brand's variations on a design system: tokens, styles, hidden components, field overrides. */
export const brandProfiles = pgTable(
  'brand_profiles',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    emailDesignSystemId: integer('email_design_system_id')
      .notNull()
      .references(() => emailDesignSystems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    designTokens: jsonb('design_tokens').$type<Record<string, unknown>>().notNull().default({}),
    customStyles: jsonb('custom_styles')
      .$type<{ name: string; label: string; style: string }[]>()
      .notNull()
      .default([]),
    componentOverrides: jsonb('component_overrides').$type<StoredComponentOverride[]>().notNull().default([]),
    ...timestamps,
  },
  (table) => [index('brand_profiles_system_idx').on(table.emailDesignSystemId)],
);

/** A saved email body (container and component instances) that new emails can start from. */
export const layouts = pgTable(
  'layouts',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    emailDesignSystemId: integer('email_design_system_id')
      .notNull()
      .references(() => emailDesignSystems.id, { onDelete: 'cascade' }),
    brandProfileId: integer('brand_profile_id').references(() => brandProfiles.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    locales: jsonb('locales').$type<string[]>().notNull().default([]),
    /** Goes up with every write; a write naming an older one is refused (409), as for emails. */
    lockVersion: integer('lock_version').notNull().default(1),
    ...timestamps,
  },
  (table) => [index('layouts_workspace_idx').on(table.workspaceId)],
);

/** A set of related emails with one purpose, owned by exactly one team. */
export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id),
    name: text('name').notNull(),
    description: text('description'),
    ...timestamps,
  },
  (table) => [
    index('projects_workspace_idx').on(table.workspaceId),
    index('projects_team_idx').on(table.teamId),
  ],
);

export const emailStatuses = ['draft', 'in_review', 'changes_requested', 'approved', 'published'] as const;
export type EmailStatus = (typeof emailStatuses)[number];

/** Email content as stored: the reference's snake_case shape, checked by the emails module. */
type StoredEmailContent = Record<string, unknown>;

/** An email of a project, written with one design system in one or more locales. */
export const emails = pgTable(
  'emails',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    emailDesignSystemId: integer('email_design_system_id')
      .notNull()
      .references(() => emailDesignSystems.id),
    brandProfileId: integer('brand_profile_id').references(() => brandProfiles.id, { onDelete: 'set null' }),
    linkTrackingProfileId: integer('link_tracking_profile_id'),
    aiAgentId: integer('ai_agent_id'),
    name: text('name').notNull(),
    status: text('status').$type<EmailStatus>().notNull().default('draft'),
    defaultLocale: text('default_locale').notNull(),
    locales: jsonb('locales').$type<string[]>().notNull(),
    content: jsonb('content').$type<StoredEmailContent>().notNull(),
    /** Bumped on every content change; a write naming an older one is refused (no lost update). */
    lockVersion: integer('lock_version').notNull().default(1),
    createWithAi: boolean('create_with_ai').notNull().default(false),
    prompt: text('prompt'),
    /** `generating` while an AI job writes the content, `done` after; null for emails made by hand. */
    aiGenerationStatus: text('ai_generation_status').$type<AiGenerationStatus>(),
    /** What the AI could not do (values it gave that failed validation, a provider error), in words. */
    aiGenerationError: text('ai_generation_error'),
    lastUpdatedById: integer('last_updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The version the open editing session saves into (see `saveEditedContent`): a save by the same
     * person within the session's gap replaces it instead of adding one. The session is open only
     * while `open_version_saved_at` equals `updated_at`, that is while nothing else wrote the email.
     */
    openVersionId: bigint('open_version_id', { mode: 'number' }),
    openVersionSavedAt: timestamp('open_version_saved_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    index('emails_workspace_updated_idx').on(table.workspaceId, table.updatedAt),
    index('emails_project_idx').on(table.projectId),
  ],
);

/** Every saved state of an email's content and locales, newest last. */
export const emailVersions = pgTable(
  'email_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    emailId: integer('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    versionId: text('version_id').notNull(),
    emailData: jsonb('email_data')
      .$type<{ email_content: StoredEmailContent; locales: string[] }>()
      .notNull(),
    lastUpdatedById: integer('last_updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Which AI feature wrote this version (`email_generation`, `translation`, …), on behalf of `last_updated_by_id`. */
    aiFeature: text('ai_feature'),
    /** What people call this version ("Sent to legal"); null for most. */
    name: text('name'),
    /** The version this one restored (its content), when it was written by a restore. */
    restoredFromVersionId: text('restored_from_version_id'),
    /** How many saves of an editing session this version holds: each save replaces it (`created_at` is the last). */
    saveCount: integer('save_count').notNull().default(1),
    /** When the first of those saves was; null when it holds one. */
    firstSavedAt: timestamp('first_saved_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    index('email_versions_email_idx').on(table.emailId, table.id),
    uniqueIndex('email_versions_version_id_unique').on(table.emailId, table.versionId),
  ],
);

const workspaceOwned = () => ({
  organizationId: integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  workspaceId: integer('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
});

/** One sending platform's dialect; conditionals and personalization tags keep a syntax per profile. */
export const dynamicContentProfiles = pgTable(
  'dynamic_content_profiles',
  {
    id: text('id').primaryKey(),
    ...workspaceOwned(),
    name: text('name').notNull(),
    templateEnginePreset: text('template_engine_preset'),
    ...timestamps,
  },
  (table) => [index('dynamic_content_profiles_workspace_idx').on(table.workspaceId)],
);

/** A stored per-profile syntax: written by hand, or the preset picker's state (compiled when read). */
export type StoredProfileSyntax =
  | { closing: string; branch_values: Record<string, string> }
  | { uses_ui_picker: true; ui_picker_state: PickerState };

export const conditionals = pgTable(
  'conditionals',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    label: text('label').notNull(),
    branches: jsonb('branches').$type<{ key: string; label: string }[]>().notNull(),
    defaultSyntax: jsonb('default_syntax')
      .$type<{ closing: string; branch_values: Record<string, string> }>()
      .notNull(),
    profileSyntaxes: jsonb('profile_syntaxes').$type<Record<string, StoredProfileSyntax>>().notNull(),
    canBeUsedInSubjectAndPreheader: boolean('can_be_used_in_subject_and_preheader').notNull().default(false),
    /** The branch an export without a dynamic content profile shows every reader; null means the last branch. */
    defaultBranchKey: text('default_branch_key'),
    ...timestamps,
  },
  (table) => [index('conditionals_workspace_idx').on(table.workspaceId)],
);

export const personalizationTags = pgTable(
  'personalization_tags',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    label: text('label').notNull(),
    defaultValue: text('default_value').notNull(),
    exampleValue: text('example_value').notNull(),
    profileValues: jsonb('profile_values').$type<Record<string, string>>().notNull(),
    ...timestamps,
  },
  (table) => [index('personalization_tags_workspace_idx').on(table.workspaceId)],
);

export const linkTrackingProfiles = pgTable(
  'link_tracking_profiles',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    name: text('name').notNull(),
    parameters: jsonb('parameters')
      .$type<({ type: string; parameter: string; value?: string } & Record<string, unknown>)[]>()
      .notNull(),
    customTemplate: text('custom_template'),
    ...timestamps,
  },
  (table) => [index('link_tracking_profiles_workspace_idx').on(table.workspaceId)],
);

export const feeds = pgTable(
  'feeds',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    requestMethod: text('request_method').notNull(),
    parameters: jsonb('parameters').$type<{ label: string; name: string }[]>().notNull(),
    headers: jsonb('headers').$type<{ key: string; value: string }[]>().notNull(),
    fields: jsonb('fields').$type<{ key: string; value: string }[]>().notNull(),
    ...timestamps,
  },
  (table) => [index('feeds_workspace_idx').on(table.workspaceId)],
);

/**
 * A sending platform account (Iterable, Salesforce Marketing Cloud) that exports deliver to.
 * `settings` holds what may be shown; what must not (API keys, client secrets, refresh tokens)
 * is one JSON object sealed by security/secrets.ts in `sealed_secrets`.
 */
export const connectors = pgTable(
  'connectors',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    name: text('name').notNull(),
    integrationName: text('integration_name').notNull(),
    settings: jsonb('settings').$type<Record<string, string>>().notNull(),
    sealedSecrets: text('sealed_secrets'),
    /** When the authorization-code flow last stored a refresh token (Salesforce Marketing Cloud). */
    authorizedAt: timestamp('authorized_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [index('connectors_workspace_idx').on(table.workspaceId)],
);

/**
 * What an export made on a platform, per connector, email and locale: the next export with
 * `update_previous_export` updates that template or asset instead of making a new one.
 */
export const connectorDeliveries = pgTable(
  'connector_deliveries',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    connectorId: integer('connector_id')
      .notNull()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    emailId: integer('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    /** The platform's id: Iterable's templateId, Content Builder's asset id. */
    externalId: text('external_id').notNull(),
    /** Our idempotency key on the platform: Iterable's clientTemplateId, Content Builder's customerKey. */
    externalKey: text('external_key').notNull(),
    resourceName: text('resource_name').notNull(),
    ...timestamps,
  },
  (table) => [uniqueIndex('connector_deliveries_unique').on(table.connectorId, table.emailId, table.locale)],
);

export const exportTypes = ['html', 'json', 'pdf', 'connector'] as const;
export type ExportType = (typeof exportTypes)[number];
export const exportStatuses = ['in_progress', 'completed', 'failed'] as const;
export type ExportStatus = (typeof exportStatuses)[number];

/** An export's options as requested (the spec's Export options). */
export interface StoredExportOptions {
  image_mode?: 'use_cdn' | 'include_in_zip';
  locales: string[];
  folder_id?: string;
  campaign_id?: string;
  export_field_values?: Record<string, string>;
  per_locale_options?: Record<string, { resource_name?: string; update_previous_export?: boolean }>;
}

/** One pre-send check finding, kept with the export (warnings only: blocking ones refuse it). */
export interface StoredCheckProblem {
  code: string;
  severity: 'blocking' | 'warning';
  locale: string | null;
  branch: string | null;
  component_instance_id: string | null;
  message: string;
}

/**
 * An export of an email: a durable background job (the `export` job kind) that renders each
 * locale and writes the result (a zip, a JSON document, a PDF; a platform's templates).
 */
export const exports = pgTable(
  'exports',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    emailId: integer('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    /** The email's name and status when the export was made. */
    emailName: text('email_name').notNull(),
    emailStatus: text('email_status').$type<EmailStatus>().notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    exportType: text('export_type').$type<ExportType>().notNull(),
    status: text('status').$type<ExportStatus>().notNull().default('in_progress'),
    connectorId: integer('connector_id'),
    integrationName: text('integration_name'),
    dynamicContentProfileId: text('dynamic_content_profile_id'),
    options: jsonb('options').$type<StoredExportOptions>().notNull(),
    metadata: jsonb('metadata')
      .$type<{ conditional_ids: number[]; personalization_tag_ids: number[]; image_ids: string[] }>()
      .notNull(),
    /** Locale (or `base` for the export as a whole) → what went wrong there. */
    exportErrors: jsonb('export_errors').$type<Record<string, string[]>>().notNull().default({}),
    warnings: jsonb('warnings').$type<StoredCheckProblem[]>().notNull().default([]),
    localesDone: integer('locales_done').notNull().default(0),
    localesTotal: integer('locales_total').notNull(),
    /** The job that runs it (pg-boss id), to tell a job that died from one still running. */
    jobId: text('job_id'),
    /** The written file (zip, JSON or PDF) in file storage, once completed. */
    fileKey: text('file_key'),
    openInIntegrationUrl: text('open_in_integration_url'),
    /** Per locale, what a connector export made or updated on the platform (its id and name there). */
    deliveredResources: jsonb('delivered_resources')
      .$type<
        Record<string, { external_id: string; resource_name: string; updated: boolean; open_url?: string }>
      >()
      .notNull()
      .default({}),
    completedAt: timestampColumn('completed_at'),
    ...timestamps,
  },
  (table) => [
    index('exports_workspace_created_idx').on(table.workspaceId, table.createdAt),
    index('exports_email_idx').on(table.emailId),
  ],
);

/**
 * How many times what a render reads has changed, per design system (its row, components and
 * brand profiles) and per workspace (its dynamic content). Written only by the triggers of the
 * migration that creates it, which also announce each change on the `letterset_render_sources`
 * channel; server processes compare these numbers with the ones of what they keep in memory.
 */
export const renderSourceVersions = pgTable(
  'render_source_versions',
  {
    /** `email_design_system` or `workspace`. */
    scope: text('scope').$type<'email_design_system' | 'workspace'>().notNull(),
    key: integer('key').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(1),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key] })],
);

// ---- Collaboration and review ----

export const approvalTypes = ['one_of', 'all_of'] as const;
/** `one_of`: any member's approval completes the stage; `all_of`: every member's does. */
export type ApprovalType = (typeof approvalTypes)[number];

/**
 * A series of review stages of the organization. Groups made for one email's submission alone
 * are `reusable: false`: they are not offered for other emails.
 */
export const reviewGroups = pgTable(
  'review_groups',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    reusable: boolean('reusable').notNull().default(true),
    ...timestamps,
  },
  (table) => [index('review_groups_organization_idx').on(table.organizationId)],
);

export const reviewGroupStages = pgTable(
  'review_group_stages',
  {
    id: serial('id').primaryKey(),
    reviewGroupId: integer('review_group_id')
      .notNull()
      .references(() => reviewGroups.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    approvalType: text('approval_type').$type<ApprovalType>().notNull(),
  },
  (table) => [index('review_group_stages_group_idx').on(table.reviewGroupId, table.position)],
);

export const reviewGroupStageMembers = pgTable(
  'review_group_stage_members',
  {
    id: serial('id').primaryKey(),
    stageId: integer('stage_id')
      .notNull()
      .references(() => reviewGroupStages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [uniqueIndex('review_group_stage_members_unique').on(table.stageId, table.userId)],
);

export const approvalWorkflowStatuses = ['in_progress', 'completed', 'cancelled'] as const;
export type ApprovalWorkflowStatus = (typeof approvalWorkflowStatuses)[number];

/** A stage as the workflow was submitted with it: editing the group later does not move it. */
export interface StageSnapshot {
  position: number;
  approval_type: ApprovalType;
  user_ids: number[];
}

/** One email's review: its stages (a snapshot of the group), the stage under way, its approvals. */
export const approvalWorkflows = pgTable(
  'approval_workflows',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    emailId: integer('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    reviewGroupId: integer('review_group_id').references(() => reviewGroups.id, { onDelete: 'set null' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<ApprovalWorkflowStatus>().notNull().default('in_progress'),
    stages: jsonb('stages').$type<StageSnapshot[]>().notNull(),
    /** The stage waiting for decisions (its position); the last stage's once completed. */
    currentStagePosition: integer('current_stage_position').notNull(),
    /** Bumped by each resubmission: decisions of an earlier round at or after the resumed stage no longer count. */
    round: integer('round').notNull().default(1),
    /** The email's lock_version when the last stage completed: only that content may be published. */
    approvedLockVersion: integer('approved_lock_version'),
    completedAt: timestampColumn('completed_at'),
    ...timestamps,
  },
  (table) => [index('approval_workflows_email_idx').on(table.emailId, table.id)],
);

export const reviewDecisions = ['approved', 'request_changes'] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];

export const reviewApprovals = pgTable(
  'review_approvals',
  {
    id: serial('id').primaryKey(),
    approvalWorkflowId: integer('approval_workflow_id')
      .notNull()
      .references(() => approvalWorkflows.id, { onDelete: 'cascade' }),
    stagePosition: integer('stage_position').notNull(),
    round: integer('round').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    decision: text('decision').$type<ReviewDecision>().notNull(),
    reviewComment: text('review_comment'),
    /** The email's lock_version the decision was made on. */
    emailLockVersion: integer('email_lock_version').notNull(),
    /** The pre-send warnings the reviewer saw when deciding (blocking problems refuse an approval). */
    preSendWarnings: jsonb('pre_send_warnings').$type<StoredCheckProblem[]>().notNull().default([]),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('review_approvals_workflow_idx').on(table.approvalWorkflowId, table.id)],
);

/** Where a comment is pinned on the preview. */
export interface StoredPinData {
  id: string;
  component_instance_id: string | null;
  branch_key: string | null;
  coordinates: { center_offset_x_px: number; y: number };
}

export const commentAuthorTypes = ['User', 'AiReviewer'] as const;
export type CommentAuthorType = (typeof commentAuthorTypes)[number];

/** A comment on one locale of an email; replies name their thread's first comment as parent. */
export const emailComments = pgTable(
  'email_comments',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    emailId: integer('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    authorType: text('author_type').$type<CommentAuthorType>().notNull(),
    authorUserId: integer('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorAiReviewerId: integer('author_ai_reviewer_id'),
    parentId: integer('parent_id'),
    pinData: jsonb('pin_data').$type<StoredPinData>(),
    body: text('body').notNull(),
    mentionedUserIds: jsonb('mentioned_user_ids').$type<number[]>().notNull().default([]),
    resolved: boolean('resolved').notNull().default(false),
    resolverId: integer('resolver_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [
    index('email_comments_email_locale_idx').on(table.emailId, table.locale, table.id),
    index('email_comments_parent_idx').on(table.parentId),
  ],
);

/** An AI reviewer of a workspace: instructions an AI model reviews emails by. */
export const aiReviewers = pgTable(
  'ai_reviewers',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    name: text('name').notNull(),
    reviewInstructions: text('review_instructions').notNull(),
    ...timestamps,
  },
  (table) => [index('ai_reviewers_workspace_idx').on(table.workspaceId)],
);

export const aiReviewStatuses = ['running', 'done', 'failed'] as const;
export type AiReviewStatus = (typeof aiReviewStatuses)[number];

export const reviewAssigneeTypes = ['User', 'Role', 'AiReviewer'] as const;
export type ReviewAssigneeType = (typeof reviewAssigneeTypes)[number];

/** A request to look at an email outside a formal workflow: a person, everyone of a role, or an AI reviewer. */
export const reviewAssignments = pgTable(
  'review_assignments',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    emailId: integer('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    assigneeType: text('assignee_type').$type<ReviewAssigneeType>().notNull(),
    assigneeId: integer('assignee_id').notNull(),
    assignedById: integer('assigned_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** For an AI reviewer: its review's run (`running`, `done`, `failed`); null for people. */
    aiReviewStatus: text('ai_review_status').$type<AiReviewStatus>(),
    aiReviewError: text('ai_review_error'),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('review_assignments_unique').on(table.emailId, table.assigneeType, table.assigneeId),
  ],
);

/** An in-app notification; the same event is mailed unless its kind is in the recipient's disabled list. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationKind>().notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    workspaceId: integer('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    emailId: integer('email_id').references(() => emails.id, { onDelete: 'cascade' }),
    emailCommentId: integer('email_comment_id').references(() => emailComments.id, { onDelete: 'cascade' }),
    /** One line that says what happened, as the bell and the mail show it. */
    message: text('message').notNull(),
    readAt: timestampColumn('read_at'),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('notifications_user_idx').on(table.userId, table.id)],
);

/**
 * An organization's AI provider. Without a row (or with `provider` null) the server's environment
 * defaults apply (`AI_PROVIDER`, `AI_BASE_URL`, `AI_MODEL`, `AI_API_KEY`); without those, AI is off.
 */
export const organizationAiSettings = pgTable('organization_ai_settings', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  provider: text('provider').$type<AiProviderName>(),
  baseUrl: text('base_url'),
  model: text('model'),
  imageModel: text('image_model'),
  /** The API key, sealed with the server's secrets key (purpose `ai_api_key`); never returned. */
  sealedApiKey: text('sealed_api_key'),
  updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
});

/** Tokens one AI call used, for the usage table in Settings › AI. */
export const aiUsage = pgTable(
  'ai_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    feature: text('feature').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('ai_usage_organization_created_idx').on(table.organizationId, table.createdAt)],
);

/** The voice and context AI features write in: a company, its tone, its rules and brand guidelines. */
export const aiAgents = pgTable(
  'ai_agents',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    name: text('name'),
    companyName: text('company_name'),
    companyOverview: text('company_overview'),
    tone: text('tone'),
    guidelines: text('guidelines'),
    brandGuidelinesDocumentName: text('brand_guidelines_document_name'),
    /** The uploaded document itself, in file storage. */
    brandGuidelinesStorageKey: text('brand_guidelines_storage_key'),
    /** Its text, extracted once at upload, for prompts. */
    brandGuidelinesText: text('brand_guidelines_text'),
    ...timestamps,
  },
  (table) => [index('ai_agents_workspace_idx').on(table.workspaceId)],
);

export const translationStatuses = ['in_progress', 'completed', 'failed'] as const;
export type TranslationStatus = (typeof translationStatuses)[number];

/** One locale of a translation: its job's state and what it could not translate. */
export interface LocaleTranslationState {
  status: TranslationStatus;
  error?: string | null;
  /** Values left untranslated because the model's answer broke protected markup. */
  refused_values?: { key: string; reason: string }[];
  translated_values?: number;
}

/** A machine translation of an email into target locales, one job per locale. */
export const emailTranslations = pgTable(
  'email_translations',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    emailId: integer('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    sourceLocale: text('source_locale').notNull(),
    targetLocales: jsonb('target_locales').$type<string[]>().notNull(),
    localeStatuses: jsonb('locale_statuses').$type<Record<string, LocaleTranslationState>>().notNull(),
    aiAgentId: integer('ai_agent_id'),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [index('email_translations_email_idx').on(table.emailId, table.id)],
);

export const mcpHealthcheckStatuses = ['pending', 'healthy', 'unhealthy'] as const;
export type McpHealthcheckStatus = (typeof mcpHealthcheckStatuses)[number];

/** An outside MCP server (an AI connector) whose tools email chat may call. */
export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    /** Header values sent with every request (`{name: value}` as JSON), sealed: they are secrets. */
    sealedHeaders: text('sealed_headers'),
    logoUrl: text('logo_url'),
    healthcheckStatus: text('healthcheck_status').$type<McpHealthcheckStatus>().notNull().default('pending'),
    /** What the last health check found wrong, in words. */
    healthcheckError: text('healthcheck_error'),
    healthcheckedAt: timestampColumn('healthchecked_at'),
    /** The server requires OAuth 2.1: each user connects their own account (enabled MCP servers). */
    oauth: boolean('oauth').notNull().default(false),
    /**
     * What OAuth needs, found at the health check: the authorization server's metadata and this
     * server's client registration (the secret, if any, sealed inside).
     */
    oauthSettings: jsonb('oauth_settings').$type<Record<string, unknown>>(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [index('mcp_servers_workspace_idx').on(table.workspaceId)],
);

/** A tool an MCP server offers, as its health check last listed it; new tools start disabled. */
export const mcpServerTools = pgTable(
  'mcp_server_tools',
  {
    id: serial('id').primaryKey(),
    mcpServerId: integer('mcp_server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    inputSchema: jsonb('input_schema').$type<Record<string, unknown>>(),
    enabled: boolean('enabled').notNull().default(false),
    ...timestamps,
  },
  (table) => [uniqueIndex('mcp_server_tools_server_name_unique').on(table.mcpServerId, table.name)],
);

/** One person's use of an MCP server, with their own OAuth tokens when the server needs them. */
export const enabledMcpServers = pgTable(
  'enabled_mcp_servers',
  {
    id: serial('id').primaryKey(),
    ...workspaceOwned(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mcpServerId: integer('mcp_server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    /** False until the person has finished the OAuth flow (servers that need it). */
    enabled: boolean('enabled').notNull().default(false),
    /** Access and refresh tokens (JSON), sealed. */
    sealedTokens: text('sealed_tokens'),
    tokensExpireAt: timestampColumn('tokens_expire_at'),
    /** The OAuth flow under way: its state and PKCE verifier (JSON), sealed. */
    sealedOauthFlow: text('sealed_oauth_flow'),
    afterOauthRedirectUrl: text('after_oauth_redirect_url'),
    ...timestamps,
  },
  (table) => [uniqueIndex('enabled_mcp_servers_user_server_unique').on(table.userId, table.mcpServerId)],
);

export const chatMessageRoles = ['user', 'assistant'] as const;
export type ChatMessageRole = (typeof chatMessageRoles)[number];

/** A person's conversation with the email chat about one email, one row a turn. */
export const emailChatMessages = pgTable(
  'email_chat_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...workspaceOwned(),
    emailId: integer('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<ChatMessageRole>().notNull(),
    /** What was said: text, and for the assistant the tools it called and what they answered. */
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('email_chat_messages_email_user_idx').on(table.emailId, table.userId, table.id)],
);

/** An outside assistant (Claude Desktop, ChatGPT, Cursor) an Admin lets use Letterset's MCP server. */
export const mcpApps = pgTable(
  'mcp_apps',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    clientId: text('client_id').notNull(),
    /** SHA-256 of the client secret; the secret is shown once, at creation. */
    clientSecretHash: text('client_secret_hash').notNull(),
    redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [uniqueIndex('mcp_apps_client_id_unique').on(table.clientId)],
);

/** An authorization code of Letterset's MCP OAuth flow: one use, a few minutes, bound to its PKCE challenge. */
export const mcpAuthorizationCodes = pgTable('mcp_authorization_codes', {
  codeHash: text('code_hash').primaryKey(),
  mcpAppId: integer('mcp_app_id')
    .notNull()
    .references(() => mcpApps.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeChallenge: text('code_challenge').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  expiresAt: timestampColumn('expires_at').notNull(),
  usedAt: timestampColumn('used_at'),
  createdAt: timestamps.createdAt,
});

/** An access token (and its refresh token) of Letterset's MCP server, bound to the user who consented. */
export const mcpAccessTokens = pgTable(
  'mcp_access_tokens',
  {
    id: serial('id').primaryKey(),
    mcpAppId: integer('mcp_app_id')
      .notNull()
      .references(() => mcpApps.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessTokenHash: text('access_token_hash').notNull(),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    /**
     * The authorization code the grant began with, kept through refreshes: a second use of the
     * code revokes every token it led to (OAuth 2.1 §4.1.3). No reference: used codes are purged.
     */
    authorizationCodeHash: text('authorization_code_hash'),
    expiresAt: timestampColumn('expires_at').notNull(),
    refreshExpiresAt: timestampColumn('refresh_expires_at').notNull(),
    revokedAt: timestampColumn('revoked_at'),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    uniqueIndex('mcp_access_tokens_access_unique').on(table.accessTokenHash),
    uniqueIndex('mcp_access_tokens_refresh_unique').on(table.refreshTokenHash),
  ],
);
