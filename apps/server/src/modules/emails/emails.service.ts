import { type EmailContent, type EmailMove, valuesEqual } from '@letterset/core';
import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { escapeLikePattern } from '../../db/like.ts';
import { type EmailStatus, emails, layouts, projects, users } from '../../db/schema.ts';
import { ConflictError, NotFoundError, notFoundAsFieldError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { AiFeature } from '../../integrations/ai/ai-client.ts';
import type { Services } from '../../services.ts';
import { recordAuditEntry } from '../audit-logs/audit-logs.service.ts';
import { findVisibleDesignSystem } from '../email-design-systems/email-design-systems.service.ts';
import { findVisibleProject } from '../projects/projects.service.ts';
import { designSystemComponents } from '../renders/renders.service.ts';
import { changeEmail } from './email-changes.ts';
import { announceEmailEvent } from './email-events.ts';
import {
  assertAiGenerationPossible,
  brandProfileFor,
  checkedAiAgentId,
  checkedLinkTrackingProfileId,
  localesOf,
} from './email-input-checks.ts';
import { assertApprovedContent, cancelWorkflowUnderWay } from './email-review-records.ts';
import { recordVersion } from './email-version-records.ts';
import { findVisibleEmail, getEmail, visibleEmails } from './email-visibility.ts';
import { contentFromLayout, initialContent, withoutLocalesOutside } from './emails.content.ts';
import { assertEditable, moveEmail } from './emails.lifecycle.ts';
import { awaitingReviewBy, submittedBy } from './emails.review-filters.ts';
import type { CloneEmailBody, CreateEmailBody, ListEmailsQuery, UpdateEmailBody } from './emails.schemas.ts';
import { contentOf, type EmailRow, editorColumns, toEmailSummary } from './emails.serializers.ts';
import { overriddenProblems, type PreSendChecker, refuseBlockingProblems } from './pre-send-gate.ts';

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
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const aiAgentId = await checkedAiAgentId(services, workspaceId, input.ai_agent_id);
  return changeEmail(
    services,
    principal,
    workspaceId,
    email,
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

/** An AI feature's change to an email, computed from the email as it is when written. */
export interface AiContentWrite {
  feature: AiFeature;
  /** On whose behalf: the person who asked. */
  userId: number | null;
  /** The new content and locales from the current ones; null when there is nothing to write. */
  change(current: EmailRow): { content: EmailContent; locales: string[] } | null;
  /** Columns set with the write (or alone, when `change` writes nothing): the generation status. */
  alsoSet?: Partial<Pick<EmailRow, 'aiGenerationStatus' | 'aiGenerationError'>>;
}

/**
 * Writes what an AI feature made, under the email's row lock and on its content as it is now, so
 * that edits made while the model was thinking are kept (the change touches only its own values),
 * as a version attributed to the feature. Refused (422) where a person's edit would be: published,
 * in review or approved. Null when the email no longer exists.
 */
export async function writeAiContent(
  db: Database,
  emailId: number,
  write: AiContentWrite,
): Promise<EmailRow | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(emails).where(eq(emails.id, emailId)).for('update');
    if (!current) return null;
    const next = write.change(current);
    const contentChanged =
      next !== null &&
      (!valuesEqual(next.content, contentOf(current)) || !valuesEqual(next.locales, current.locales));
    if (contentChanged) assertEditable(current.status);
    // The same text again (a translation run twice) changes nothing and records no version.
    if (!contentChanged && write.alsoSet === undefined) return current;
    const [row] = await tx
      .update(emails)
      .set({
        ...write.alsoSet,
        ...(contentChanged && next
          ? {
              content: next.content as unknown as Record<string, unknown>,
              locales: next.locales,
              lockVersion: sql`${emails.lockVersion} + 1`,
              lastUpdatedById: write.userId,
            }
          : {}),
      })
      .where(eq(emails.id, emailId))
      .returning();
    if (!row) return null;
    if (contentChanged) {
      await recordVersion(tx, row, { userId: write.userId }, write.feature);
      await announceEmailEvent(tx, {
        type: 'content_changed',
        email_id: row.id,
        lock_version: row.lockVersion,
      });
    }
    if (write.alsoSet?.aiGenerationStatus !== undefined) {
      await announceEmailEvent(tx, {
        type: 'ai_generation_changed',
        email_id: row.id,
        ai_generation_status: row.aiGenerationStatus,
      });
    }
    return row;
  });
}

export async function moveEmailStatus(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  move: EmailMove,
) {
  await findVisibleEmail(services, principal, workspaceId, id);
  await services.database.db.transaction(async (tx) => {
    // Locked so that a reviewer's decision and this move cannot interleave.
    const [email] = await tx.select().from(emails).where(eq(emails.id, id)).for('update');
    if (!email) throw new NotFoundError();
    const status: EmailStatus = moveEmail(principal, email.status, move);
    if (move === 'publish') await assertApprovedContent(tx, email);
    // Publishing by force or going back to draft ends the review under way: its decisions no longer apply.
    const cancelled =
      (move === 'force_publish' || move === 'convert_to_draft') && (await cancelWorkflowUnderWay(tx, id));
    await tx.update(emails).set({ status }).where(eq(emails.id, id));
    await announceEmailEvent(tx, { type: 'status_changed', email_id: id, status });
    if (cancelled) await announceEmailEvent(tx, { type: 'review_changed', email_id: id });
  });
  return getEmail(services, principal, workspaceId, id);
}

/** What a publish asks and where its trail goes. */
export interface PublishRequest {
  /** Publish from any status (needs force_publish_emails), overriding the acknowledged blocking problems. */
  force: boolean;
  /** The codes of the blocking problems the caller confirmed overriding (force only). */
  acknowledgedProblems: readonly string[] | undefined;
  preSendChecks: PreSendChecker;
  /** The request, for the audit entry of a force publish and the log line that lists what it overrode. */
  request: { path: string; id: string; log: FastifyBaseLogger };
}

/**
 * Publishes an email: from approved, the approved content, when the pre-send checks find no
 * blocking problem (422 listing them). A force publish (force_publish_emails) goes from any
 * status and may override blocking problems the caller acknowledged (409 when they changed since);
 * it ends the review under way and is recorded in the audit log as `emails.force_published`.
 */
export async function publishEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  publish: PublishRequest,
) {
  const { email: checked } = await findVisibleEmail(services, principal, workspaceId, id);
  const move: EmailMove = publish.force ? 'force_publish' : 'publish';
  // The key and the status refuse before the checks run: they would refuse whatever the checks find.
  moveEmail(principal, checked.status, move);
  if (move === 'publish') await assertApprovedContent(services.database.db, checked);
  const checks = await publish.preSendChecks(checked);
  const overridden = publish.force ? overriddenProblems(checks, publish.acknowledgedProblems) : [];
  if (!publish.force) refuseBlockingProblems(checks, 'publish');

  await services.database.db.transaction(async (tx) => {
    // Locked so that a reviewer's decision and this move cannot interleave.
    const [email] = await tx.select().from(emails).where(eq(emails.id, id)).for('update');
    if (!email) throw new NotFoundError();
    const status: EmailStatus = moveEmail(principal, email.status, move);
    if (move === 'publish') await assertApprovedContent(tx, email);
    if (email.lockVersion !== checked.lockVersion) {
      throw new ConflictError('The email changed while its pre-send checks ran: try again', {
        lock_version: email.lockVersion,
      });
    }
    // Publishing by force ends the review under way: its decisions no longer apply.
    const cancelled = move === 'force_publish' && (await cancelWorkflowUnderWay(tx, id));
    await tx.update(emails).set({ status }).where(eq(emails.id, id));
    await announceEmailEvent(tx, { type: 'status_changed', email_id: id, status });
    if (cancelled) await announceEmailEvent(tx, { type: 'review_changed', email_id: id });
    if (move === 'force_publish') {
      await recordAuditEntry(tx, principal, {
        action: 'update',
        resourceType: 'emails.force_published',
        resourceId: String(id),
        method: 'POST',
        path: publish.request.path,
        requestId: publish.request.id,
        details: { overridden_problems: overridden },
      });
    }
  });
  if (move === 'force_publish') {
    // Operators watching the logs see an override as it happens; the audit entry keeps it.
    publish.request.log.warn(
      {
        email_id: id,
        overridden_problems: overridden,
      },
      overridden.length > 0
        ? `email force-published over ${overridden.length} blocking pre-send problem(s)`
        : 'email force-published',
    );
  }
  return {
    ...(await getEmail(services, principal, workspaceId, id)),
    pre_send_warnings: checks.problems.filter((problem) => problem.severity === 'warning'),
    overridden_problems: overridden,
  };
}

export async function cloneEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof CloneEmailBody>,
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const aiAgentId = await checkedAiAgentId(services, workspaceId, input.ai_agent_id);
  if (input.clone_with_ai) await assertAiGenerationPossible(services, principal, input, 'prompt');
  const copy = await services.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emails)
      .values({
        organizationId: email.organizationId,
        workspaceId,
        projectId: email.projectId,
        emailDesignSystemId: email.emailDesignSystemId,
        brandProfileId: email.brandProfileId,
        linkTrackingProfileId: email.linkTrackingProfileId,
        aiAgentId: aiAgentId === undefined ? email.aiAgentId : aiAgentId,
        name: input.name,
        defaultLocale: email.defaultLocale,
        locales: email.locales,
        content: email.content,
        lastUpdatedById: principal.userId,
        ...(input.clone_with_ai ? { prompt: input.prompt, aiGenerationStatus: 'generating' as const } : {}),
      })
      .returning();
    if (!row) throw new Error('email insert returned nothing');
    await recordVersion(tx, row, principal);
    return row;
  });
  if (input.clone_with_ai) {
    await services.jobs.send('email-generation', {
      email_id: copy.id,
      user_id: principal.userId,
      mode: 'rewrite',
      feature: 'email_clone',
    });
  }
  return getEmail(services, principal, workspaceId, copy.id);
}
