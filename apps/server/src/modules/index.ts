import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { aiAgentsRoutes } from './ai-agents/ai-agents.routes.ts';
import { AiAgent, AiAgentBrandGuidelinesDocument } from './ai-agents/ai-agents.schemas.ts';
import { aiGenerationRoutes } from './ai-generation/ai-generation.routes.ts';
import { aiReviewersRoutes } from './ai-reviewers/ai-reviewers.routes.ts';
import { AiReviewer } from './ai-reviewers/ai-reviewers.schemas.ts';
import { aiSettingsRoutes } from './ai-settings/ai-settings.routes.ts';
import { AiConnectionTest, AiSettings, AiUsage } from './ai-settings/ai-settings.schemas.ts';
import { apiKeysRoutes } from './api-keys/api-keys.routes.ts';
import { ApiKey, CreatedApiKey } from './api-keys/api-keys.schemas.ts';
import { approvalWorkflowsRoutes } from './approval-workflows/approval-workflows.routes.ts';
import { ApprovalWorkflow, ReviewApproval } from './approval-workflows/approval-workflows.schemas.ts';
import { auditLogsRoutes } from './audit-logs/audit-logs.routes.ts';
import { AuditLogEntry } from './audit-logs/audit-logs.schemas.ts';
import { brandProfilesRoutes } from './brand-profiles/brand-profiles.routes.ts';
import { BrandProfile } from './brand-profiles/brand-profiles.schemas.ts';
import { componentsRoutes } from './components/components.routes.ts';
import { Component, ComponentVersion, FieldDefinition } from './components/components.schemas.ts';
import { conditionalsRoutes } from './conditionals/conditionals.routes.ts';
import { Conditional } from './conditionals/conditionals.schemas.ts';
import { connectorsRoutes } from './connectors/connectors.routes.ts';
import {
  ConnectionTestResult,
  Connector,
  ConnectorIntegration,
  SetupField,
} from './connectors/connectors.schemas.ts';
import { dynamicContentProfilesRoutes } from './dynamic-content-profiles/dynamic-content-profiles.routes.ts';
import { DynamicContentProfile } from './dynamic-content-profiles/dynamic-content-profiles.schemas.ts';
import { emailChatRoutes } from './email-chat/email-chat.routes.ts';
import { EmailChatMessage } from './email-chat/email-chat.schemas.ts';
import { emailCommentsRoutes } from './email-comments/email-comments.routes.ts';
import { EmailComment, PinData } from './email-comments/email-comments.schemas.ts';
import { EmailContent, Locale } from './email-content/email-content.schemas.ts';
import { emailDesignSystemsRoutes } from './email-design-systems/email-design-systems.routes.ts';
import { DesignSystemJson, EmailDesignSystem } from './email-design-systems/email-design-systems.schemas.ts';
import { emailTranslationsRoutes } from './email-translations/email-translations.routes.ts';
import {
  EmailTranslation,
  LocaleTranslationStatus,
} from './email-translations/email-translations.schemas.ts';
import { emailEventsRoutes } from './emails/email-events.routes.ts';
import { emailPresenceRoutes } from './emails/email-presence.routes.ts';
import { emailsRoutes } from './emails/emails.routes.ts';
import {
  ContentValidationResult,
  Email,
  EmailConflict,
  EmailHistoryEntry,
  EmailSummary,
  EmailVersion,
  PreSendProblem,
  PublishedEmail,
  RenderedEmail,
  TestSendResult,
} from './emails/emails.schemas.ts';
import { exportsRoutes } from './exports/exports.routes.ts';
import { Export, ExportData, ExportOptions, PreSendCheckResult } from './exports/exports.schemas.ts';
import { feedsRoutes } from './feeds/feeds.routes.ts';
import { Feed, FeedRunResult } from './feeds/feeds.schemas.ts';
import { imagesRoutes } from './images/images.routes.ts';
import { Image } from './images/images.schemas.ts';
import { invitationsRoutes } from './invitations/invitations.routes.ts';
import { layoutsRoutes } from './layouts/layouts.routes.ts';
import { Layout, LayoutConflict } from './layouts/layouts.schemas.ts';
import { linkTrackingProfilesRoutes } from './link-tracking-profiles/link-tracking-profiles.routes.ts';
import { LinkTrackingProfile } from './link-tracking-profiles/link-tracking-profiles.schemas.ts';
import { mcpAppsRoutes } from './mcp-apps/mcp-apps.routes.ts';
import { CreatedMcpApp, McpApp, McpClient, McpConsentResult } from './mcp-apps/mcp-apps.schemas.ts';
import { mcpServersRoutes } from './mcp-servers/mcp-servers.routes.ts';
import { EnabledMcpServer, McpServer, McpServerTool } from './mcp-servers/mcp-servers.schemas.ts';
import { meRoutes } from './me/me.routes.ts';
import { Me } from './me/me.schemas.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { Notification, UnreadCount } from './notifications/notifications.schemas.ts';
import { personalizationTagsRoutes } from './personalization-tags/personalization-tags.routes.ts';
import { PersonalizationTag } from './personalization-tags/personalization-tags.schemas.ts';
import { projectsRoutes } from './projects/projects.routes.ts';
import { Project } from './projects/projects.schemas.ts';
import { rendersRoutes } from './renders/renders.routes.ts';
import { RenderOutput } from './renders/renders.schemas.ts';
import { reviewAssignmentsRoutes } from './review-assignments/review-assignments.routes.ts';
import { ReviewAssignment } from './review-assignments/review-assignments.schemas.ts';
import { reviewGroupsRoutes } from './review-groups/review-groups.routes.ts';
import { ReviewGroup } from './review-groups/review-groups.schemas.ts';
import { rolesRoutes } from './roles/roles.routes.ts';
import { Role } from './roles/roles.schemas.ts';
import { sessionsRoutes } from './sessions/sessions.routes.ts';
import { SignInRefusal } from './sessions/sessions.schemas.ts';
import { setupRoutes } from './setup/setup.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { teamsRoutes } from './teams/teams.routes.ts';
import { Team, TeamMember } from './teams/teams.schemas.ts';
import { translationSpreadsheetsRoutes } from './translation-spreadsheets/translation-spreadsheets.routes.ts';
import { TranslationImportResult } from './translation-spreadsheets/translation-spreadsheets.schemas.ts';
import { usersRoutes } from './users/users.routes.ts';
import { User, UserReference } from './users/users.schemas.ts';
import { workspacesRoutes } from './workspaces/workspaces.routes.ts';
import { Workspace } from './workspaces/workspaces.schemas.ts';

export interface Module {
  routes: FastifyPluginAsyncTypebox;
  /** Schemas with an $id that routes reference: they become named components in the OpenAPI document. */
  schemas?: TSchema[];
}

/** Every resource of the API. A new module is added here and nowhere else. */
export const modules: Module[] = [
  { routes: systemRoutes },
  { routes: setupRoutes },
  { routes: sessionsRoutes, schemas: [SignInRefusal] },
  { routes: meRoutes, schemas: [Me] },
  { routes: invitationsRoutes },
  { routes: usersRoutes, schemas: [UserReference, User] },
  { routes: rolesRoutes, schemas: [Role] },
  { routes: workspacesRoutes, schemas: [Workspace] },
  { routes: teamsRoutes, schemas: [Team, TeamMember] },
  { routes: apiKeysRoutes, schemas: [ApiKey, CreatedApiKey] },
  { routes: mcpAppsRoutes, schemas: [McpApp, CreatedMcpApp, McpClient, McpConsentResult] },
  { routes: componentsRoutes, schemas: [FieldDefinition, Component, ComponentVersion] },
  { routes: emailDesignSystemsRoutes, schemas: [EmailDesignSystem, DesignSystemJson] },
  { routes: brandProfilesRoutes, schemas: [BrandProfile] },
  { routes: layoutsRoutes, schemas: [Locale, EmailContent, Layout, LayoutConflict] },
  { routes: projectsRoutes, schemas: [Project] },
  {
    routes: emailsRoutes,
    schemas: [
      EmailSummary,
      Email,
      PublishedEmail,
      EmailConflict,
      EmailVersion,
      EmailHistoryEntry,
      ContentValidationResult,
      RenderedEmail,
      TestSendResult,
    ],
  },
  { routes: emailEventsRoutes },
  { routes: emailPresenceRoutes },
  { routes: rendersRoutes, schemas: [RenderOutput] },
  { routes: imagesRoutes, schemas: [Image] },
  { routes: dynamicContentProfilesRoutes, schemas: [DynamicContentProfile] },
  { routes: conditionalsRoutes, schemas: [Conditional] },
  { routes: personalizationTagsRoutes, schemas: [PersonalizationTag] },
  { routes: linkTrackingProfilesRoutes, schemas: [LinkTrackingProfile] },
  { routes: feedsRoutes, schemas: [Feed, FeedRunResult] },
  {
    routes: connectorsRoutes,
    schemas: [SetupField, Connector, ConnectorIntegration, ConnectionTestResult],
  },
  { routes: mcpServersRoutes, schemas: [McpServerTool, McpServer, EnabledMcpServer] },
  { routes: auditLogsRoutes, schemas: [AuditLogEntry] },
  {
    routes: exportsRoutes,
    schemas: [PreSendProblem, PreSendCheckResult, ExportOptions, Export, ExportData],
  },
  { routes: notificationsRoutes, schemas: [Notification, UnreadCount] },
  { routes: emailCommentsRoutes, schemas: [PinData, EmailComment] },
  { routes: emailChatRoutes, schemas: [EmailChatMessage] },
  { routes: aiGenerationRoutes },
  { routes: emailTranslationsRoutes, schemas: [LocaleTranslationStatus, EmailTranslation] },
  { routes: reviewGroupsRoutes, schemas: [ReviewGroup] },
  { routes: aiAgentsRoutes, schemas: [AiAgentBrandGuidelinesDocument, AiAgent] },
  { routes: aiReviewersRoutes, schemas: [AiReviewer] },
  { routes: aiSettingsRoutes, schemas: [AiSettings, AiConnectionTest, AiUsage] },
  { routes: reviewAssignmentsRoutes, schemas: [ReviewAssignment] },
  { routes: approvalWorkflowsRoutes, schemas: [ReviewApproval, ApprovalWorkflow] },
  { routes: translationSpreadsheetsRoutes, schemas: [TranslationImportResult] },
];
