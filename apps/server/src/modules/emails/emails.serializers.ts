import type { EmailContent } from '@letterset/core';
import type { Static } from 'typebox';
import { readAiGenerationStatus } from '../../db/ai-generation-status.ts';
import { type emails, users } from '../../db/schema.ts';
import { toUserReference } from '../users/users.serializers.ts';
import type { Email, EmailSummary } from './emails.schemas.ts';

export type EmailRow = typeof emails.$inferSelect;
export type Editor = Parameters<typeof toUserReference>[0] | null;

export const editorColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
};

export function toEmailSummary(row: Omit<EmailRow, 'content'>, editor: Editor): Static<typeof EmailSummary> {
  return {
    id: row.id,
    status: row.status,
    name: row.name,
    project_id: row.projectId,
    organization_id: row.organizationId,
    email_design_system_id: row.emailDesignSystemId,
    brand_profile_id: row.brandProfileId,
    link_tracking_profile_id: row.linkTrackingProfileId,
    ai_agent_id: row.aiAgentId,
    default_locale: row.defaultLocale,
    locales: row.locales,
    lock_version: row.lockVersion,
    create_with_ai: row.createWithAi,
    prompt: row.prompt,
    ai_generation_status: readAiGenerationStatus(row.aiGenerationStatus, row.aiGenerationError),
    ai_generation_error: row.aiGenerationError,
    last_updated_by: editor ? toUserReference(editor) : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function toEmailResponse(row: EmailRow, editor: Editor): Static<typeof Email> {
  return {
    ...toEmailSummary(row, editor),
    email_content: row.content as Static<typeof Email>['email_content'],
  };
}

export function contentOf(row: EmailRow): EmailContent {
  return row.content as unknown as EmailContent;
}
