import type { EmailContent } from '@letterset/core';
import { and, count, desc, eq, ilike } from 'drizzle-orm';
import type { Static } from 'typebox';
import { aiGenerationStatusIs } from '../../db/ai-generation-status.ts';
import { escapeLikePattern } from '../../db/like.ts';
import { emails, layouts, projects, users } from '../../db/schema.ts';
import { notFoundAsFieldError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { findVisibleDesignSystem } from '../email-design-systems/email-design-systems.service.ts';
import { findVisibleProject } from '../projects/projects.service.ts';
import { designSystemComponents } from '../renders/renders.service.ts';
import { changeEmail } from './email-changes.ts';
import {
  assertAiGenerationPossible,
  brandProfileFor,
  checkedAiAgentId,
  checkedLinkTrackingProfileId,
  localesOf,
} from './email-input-checks.ts';
import { recordVersion } from './email-version-records.ts';
import { findVisibleEmail, getEmail, visibleEmails } from './email-visibility.ts';
import { contentFromLayout, initialContent, withoutLocalesOutside } from './emails.content.ts';
import { awaitingReviewBy, submittedBy } from './emails.review-filters.ts';
import type { CreateEmailBody, ListEmailsQuery, UpdateEmailBody } from './emails.schemas.ts';
import { editorColumns, toEmailSummary } from './emails.serializers.ts';

export async function listEmails(
  services: Services,
  principal: Principal,
  workspaceId: number,
  query: Static<typeof ListEmailsQuery>,
  page: PageRequest,
) {
  const where = visibleEmails(
    services,
    principal,
    workspaceId,
    query.project_id !== undefined ? eq(emails.projectId, query.project_id) : undefined,
    query.status !== undefined ? eq(emails.status, query.status) : undefined,
    query.ai_generation_status !== undefined
      ? aiGenerationStatusIs(
          { status: emails.aiGenerationStatus, error: emails.aiGenerationError },
          query.ai_generation_status,
        )
      : undefined,
    query.search ? ilike(emails.name, `%${escapeLikePattern(query.search)}%`) : undefined,
    query.awaiting_my_review ? awaitingReviewBy(principal.userId) : undefined,
    query.submitted_by_me ? submittedBy(principal.userId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select({ email: emails, editor: editorColumns })
      .from(emails)
      .innerJoin(projects, eq(projects.id, emails.projectId))
      .leftJoin(users, eq(users.id, emails.lastUpdatedById))
      .where(where)
      .orderBy(desc(emails.updatedAt), desc(emails.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db
      .select({ value: count() })
      .from(emails)
      .innerJoin(projects, eq(projects.id, emails.projectId))
      .where(where),
  ]);
  return listBody(
    rows.map((row) => toEmailSummary(row.email, row.editor)),
    total?.value ?? 0,
    page,
  );
}

export async function createEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateEmailBody>,
) {
  await findVisibleProject(services, principal, workspaceId, input.project_id).catch(
    notFoundAsFieldError('project_id', 'is not a project of this workspace that you can see'),
  );
  const system = await findVisibleDesignSystem(
    services,
    principal,
    workspaceId,
    input.email_design_system_id,
  ).catch(notFoundAsFieldError('email_design_system_id', 'is not a design system this workspace can use'));
  if (system.archived) {
    throw ValidationError.field('email_design_system_id', 'is archived: new emails cannot use it');
  }
  const aiAgentId = await checkedAiAgentId(services, workspaceId, input.ai_agent_id);
  if (input.create_with_ai) await assertAiGenerationPossible(services, principal, input, 'prompt');
  const brandProfileId = await brandProfileFor(services, system, input.brand_profile_id);
  const linkTrackingProfileId = await checkedLinkTrackingProfileId(
    services,
    workspaceId,
    input.link_tracking_profile_id,
  );
  const { defaultLocale, locales } = localesOf(input);

  let content: EmailContent;
  if (input.layout_id !== undefined) {
    const [layout] = await services.database.db
      .select()
      .from(layouts)
      .where(and(eq(layouts.id, input.layout_id), eq(layouts.workspaceId, workspaceId)));
    if (!layout || layout.emailDesignSystemId !== system.id) {
      throw ValidationError.field(
        'layout_id',
        'is not a layout of the email’s design system in this workspace',
      );
    }
    content = withoutLocalesOutside(
      contentFromLayout(layout.content as unknown as EmailContent, locales),
      locales,
    );
  } else {
    const { rows } = await designSystemComponents(services, system.id);
    const container = rows.find((component) => component.container);
    if (!container) {
      throw ValidationError.field(
        'email_design_system_id',
        'has no container component to start an email from',
      );
    }
    content = initialContent(container.id, locales);
  }

  const email = await services.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emails)
      .values({
        organizationId: principal.organizationId,
        workspaceId,
        projectId: input.project_id,
        emailDesignSystemId: system.id,
        brandProfileId,
        linkTrackingProfileId: linkTrackingProfileId ?? null,
        aiAgentId: aiAgentId ?? null,
        name: input.name,
        defaultLocale,
        locales,
        content: content as unknown as Record<string, unknown>,
        lastUpdatedById: principal.userId,
        ...(input.create_with_ai
          ? { createWithAi: true, prompt: input.prompt, aiGenerationStatus: 'generating' as const }
          : {}),
      })
      .returning();
    if (!row) throw new Error('email insert returned nothing');
    await recordVersion(tx, row, principal);
    return row;
  });
  if (input.create_with_ai) {
    await services.jobs.send('email-generation', {
      email_id: email.id,
      user_id: principal.userId,
      mode: input.layout_id !== undefined ? 'rewrite' : 'compose',
      feature: 'email_generation',
    });
  }
  return getEmail(services, principal, workspaceId, email.id);
}

export async function updateEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateEmailBody>,
) {
  const found = await findVisibleEmail(services, principal, workspaceId, id);
  const aiAgentId = await checkedAiAgentId(services, workspaceId, input.ai_agent_id);
  return changeEmail(
    services,
    principal,
    workspaceId,
    found,
    {
      name: input.name,
      projectId: input.project_id,
      content: input.email_content as EmailContent | undefined,
      locales: input.locales,
      sourceLocale: input.source_locale,
      defaultLocale: input.default_locale,
      brandProfileId: input.brand_profile_id,
      linkTrackingProfileId: input.link_tracking_profile_id,
      aiAgentId,
    },
    input.lock_version,
  );
}

export async function deleteEmail(services: Services, principal: Principal, workspaceId: number, id: number) {
  await findVisibleEmail(services, principal, workspaceId, id);
  await services.database.db.delete(emails).where(eq(emails.id, id));
}
