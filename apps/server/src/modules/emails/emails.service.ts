import { randomUUID } from 'node:crypto';
import {
  conditionalReferenceProblems,
  type EmailContent,
  permissionsForContentChange,
  valuesEqual,
} from '@letterset/core';
import { and, count, desc, eq, getTableColumns, ilike, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import { BatchedReads } from '../../db/batched-reads.ts';
import type { Database } from '../../db/client.ts';
import { escapeLikePattern } from '../../db/like.ts';
import { perDatabase } from '../../db/per-database.ts';
import { type EmailStatus, emails, emailVersions, layouts, projects, users } from '../../db/schema.ts';
import { type Principal, principalOf, requirePermission, workspaceOf } from '../../http/access.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import { assertApprovedContent, cancelWorkflowUnderWay } from '../approval-workflows/workflow-records.ts';
import { findBrandProfile } from '../brand-profiles/brand-profiles.service.ts';
import { loadDynamicContent } from '../dynamic-content-profiles/dynamic-content-profiles.service.ts';
import { findVisibleDesignSystem } from '../email-design-systems/email-design-systems.service.ts';
import { findLinkTrackingProfileToUse } from '../link-tracking-profiles/link-tracking-profiles.service.ts';
import {
  findVisibleProject,
  teamProjectsFilter,
  visibleProjectsFilter,
} from '../projects/projects.service.ts';
import { designSystemComponents } from '../renders/renders.service.ts';
import { toUserReference } from '../users/users.serializers.ts';
import { announceEmailEvent } from './email-events.ts';
import {
  contentFromLayout,
  emailContentProblems,
  initialContent,
  withoutLocalesOutside,
} from './emails.content.ts';
import { assertEditable, type EmailMove, moveEmail } from './emails.lifecycle.ts';
import { awaitingReviewBy, submittedBy } from './emails.review-filters.ts';
import type {
  CloneEmailBody,
  CreateEmailBody,
  Email,
  EmailSummary,
  EmailVersion,
  ListEmailsQuery,
  UpdateEmailBody,
} from './emails.schemas.ts';

export type EmailRow = typeof emails.$inferSelect;
type Editor = Parameters<typeof toUserReference>[0] | null;

const editorColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
};

function toEmailSummary(row: Omit<EmailRow, 'content'>, editor: Editor): Static<typeof EmailSummary> {
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
    ai_generation_status: null,
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

/** Emails of the workspace whose project the principal may see; the rest answer 404. */
function visibleEmails(
  app: App,
  principal: Principal,
  workspaceId: number,
  ...conditions: (SQL | undefined)[]
) {
  return and(eq(emails.workspaceId, workspaceId), visibleProjectsFilter(app, principal), ...conditions);
}

export async function listEmails(
  app: App,
  principal: Principal,
  workspaceId: number,
  query: Static<typeof ListEmailsQuery>,
  page: PageRequest,
) {
  const where = visibleEmails(
    app,
    principal,
    workspaceId,
    query.project_id !== undefined ? eq(emails.projectId, query.project_id) : undefined,
    query.status !== undefined ? eq(emails.status, query.status) : undefined,
    query.search ? ilike(emails.name, `%${escapeLikePattern(query.search)}%`) : undefined,
    query.awaiting_my_review ? awaitingReviewBy(principal.userId) : undefined,
    query.submitted_by_me ? submittedBy(principal.userId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    app.database.db
      .select({ email: emails, editor: editorColumns })
      .from(emails)
      .innerJoin(projects, eq(projects.id, emails.projectId))
      .leftJoin(users, eq(users.id, emails.lastUpdatedById))
      .where(where)
      .orderBy(desc(emails.updatedAt), desc(emails.id))
      .limit(page.limit)
      .offset(page.offset),
    app.database.db
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

type ProjectsSeen = 'all' | 'of_teams';

function projectsSeenBy(principal: Principal): ProjectsSeen {
  return principal.permissions.has('access_all_projects') ? 'all' : 'of_teams';
}

/** Emails of a prepared query's `workspaceId` matching `idMatch`, in projects the caller sees. */
function visibleEmailsCondition(db: Database, projectsSeen: ProjectsSeen, idMatch: SQL) {
  return and(
    eq(emails.workspaceId, sql.placeholder('workspaceId')),
    idMatch,
    projectsSeen === 'of_teams' ? teamProjectsFilter(db, sql.placeholder('userId')) : undefined,
  );
}

/*
 * Reading one email is the hottest call of the API: its queries are prepared, once for each way
 * of seeing projects, which skips building the query and planning it on every call.
 */
const visibleEmailQueries = perDatabase((db) => {
  const prepare = (projectsSeen: ProjectsSeen) =>
    db
      .select({ email: emails, editor: editorColumns })
      .from(emails)
      .innerJoin(projects, eq(projects.id, emails.projectId))
      .leftJoin(users, eq(users.id, emails.lastUpdatedById))
      .where(visibleEmailsCondition(db, projectsSeen, eq(emails.id, sql.placeholder('id'))))
      .prepare(`find_visible_email_in_${projectsSeen}_projects`);
  return { all: prepare('all'), of_teams: prepare('of_teams') };
});

const { content: _content, ...emailColumnsButContent } = getTableColumns(emails);

/** GET's query, for the `ids` of a batch: the content as the JSON text PostgreSQL holds, to send as it is. */
const visibleEmailJsonQueries = perDatabase((db) => {
  const prepare = (projectsSeen: ProjectsSeen) =>
    db
      .select({
        email: emailColumnsButContent,
        contentJson: sql<string>`${emails.content}::text`,
        editor: editorColumns,
      })
      .from(emails)
      .innerJoin(projects, eq(projects.id, emails.projectId))
      .leftJoin(users, eq(users.id, emails.lastUpdatedById))
      .where(visibleEmailsCondition(db, projectsSeen, sql`${emails.id} = any(${sql.placeholder('ids')})`))
      .prepare(`read_visible_emails_json_in_${projectsSeen}_projects`);
  return { all: prepare('all'), of_teams: prepare('of_teams') };
});

/** One email the principal may see, with who last changed it, in one query. */
export async function findVisibleEmail(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<{ email: EmailRow; editor: Editor }> {
  const query = visibleEmailQueries(app.database.db)[projectsSeenBy(principal)];
  const [row] = await query.execute({ workspaceId, id, userId: principal.userId });
  if (!row) throw new NotFoundError();
  return row;
}

/** The email a route's `email_id` names in the request's workspace, if the caller may see it (404 otherwise). */
export async function findRequestedEmail(
  app: App,
  request: FastifyRequest & { params: { email_id: number } },
): Promise<EmailRow> {
  const { email } = await findVisibleEmail(
    app,
    principalOf(request),
    workspaceOf(request).id,
    request.params.email_id,
  );
  return email;
}

export async function getEmail(app: App, principal: Principal, workspaceId: number, id: number) {
  const { email, editor } = await findVisibleEmail(app, principal, workspaceId, id);
  return toEmailResponse(email, editor);
}

/** GETs of emails arriving together share a query when their callers see the same projects. */
const emailJsonReads = perDatabase(() => new BatchedReads<number, Buffer>());

/**
 * The email as GET answers it, as JSON bytes, which concurrent requests may share. The content
 * goes out as PostgreSQL holds it (it was validated when written): parsing it and serializing it
 * again was most of the cost of the call.
 */
export async function readEmailJson(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<Buffer> {
  const projectsSeen = projectsSeenBy(principal);
  const group = `${workspaceId}/${projectsSeen === 'all' ? 'all' : `teams_of_${principal.userId}`}`;
  const json = await emailJsonReads(app.database.db).read(group, id, async (ids) => {
    const query = visibleEmailJsonQueries(app.database.db)[projectsSeen];
    const rows = await query.execute({ workspaceId, ids, userId: principal.userId });
    return new Map(
      rows.map((row) => {
        const summary = JSON.stringify(toEmailSummary(row.email, row.editor));
        return [row.email.id, Buffer.from(`${summary.slice(0, -1)},"email_content":${row.contentJson}}`)];
      }),
    );
  });
  if (!json) throw new NotFoundError();
  return json;
}

/** The default locale and the locale list, each defaulting to the other; the default must be listed. */
function localesOf(input: { default_locale?: string; locales?: string[] }) {
  const localeList = input.locales ?? [input.default_locale ?? 'en-US'];
  const defaultLocale = input.default_locale ?? localeList[0] ?? 'en-US';
  if (!localeList.includes(defaultLocale)) {
    throw ValidationError.field('default_locale', 'must be one of the email’s locales');
  }
  return { defaultLocale, locales: localeList };
}

/** AI agents do not exist on this server yet: an id naming one is refused, never stored unchecked. */
function refuseUnknownAiAgent(input: { ai_agent_id?: number | null }) {
  if (input.ai_agent_id != null)
    throw ValidationError.field('ai_agent_id', 'is not an AI agent of this workspace');
}

/** The id as given (null and undefined pass through), once the workspace is known to have it. */
async function checkedLinkTrackingProfileId(
  app: App,
  workspaceId: number,
  id: number | null | undefined,
): Promise<number | null | undefined> {
  if (id != null) await findLinkTrackingProfileToUse(app, workspaceId, id);
  return id;
}

/** Conditionals named in the content must be the workspace's, with the branches they hold. */
async function conditionalProblems(app: App, workspaceId: number, content: EmailContent) {
  if (!namesAnyConditional(content)) return {};
  const { conditionals } = await loadDynamicContent(app, workspaceId, {});
  return conditionalReferenceProblems(content, conditionals ?? [], 'email_content');
}

function namesAnyConditional(content: EmailContent): boolean {
  return [
    content.subject,
    content.preheader,
    content.container_component_instance,
    ...content.component_instances,
  ].some((part) => part?.conditional_id != null);
}

async function brandProfileFor(
  app: App,
  system: { id: number; requireBrandProfileForUse: boolean },
  brandProfileId: number | null | undefined,
): Promise<number | null> {
  if (brandProfileId == null) {
    if (system.requireBrandProfileForUse) {
      throw ValidationError.field(
        'brand_profile_id',
        'is required: this design system is used through a brand profile',
      );
    }
    return null;
  }
  await findBrandProfile(app, system.id, brandProfileId).catch(() => {
    throw ValidationError.field('brand_profile_id', 'is not a brand profile of the email’s design system');
  });
  return brandProfileId;
}

async function recordVersion(
  database: Pick<App['database']['db'], 'insert'>,
  email: Pick<EmailRow, 'id' | 'content' | 'locales'>,
  principal: Principal,
) {
  await database.insert(emailVersions).values({
    emailId: email.id,
    versionId: randomUUID(),
    emailData: { email_content: email.content, locales: email.locales },
    lastUpdatedById: principal.userId,
  });
}

export async function createEmail(
  app: App,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateEmailBody>,
) {
  await findVisibleProject(app, principal, workspaceId, input.project_id).catch(() => {
    throw ValidationError.field('project_id', 'is not a project of this workspace that you can see');
  });
  const system = await findVisibleDesignSystem(
    app,
    principal,
    workspaceId,
    input.email_design_system_id,
  ).catch(() => {
    throw ValidationError.field('email_design_system_id', 'is not a design system this workspace can use');
  });
  if (system.archived) {
    throw ValidationError.field('email_design_system_id', 'is archived: new emails cannot use it');
  }
  refuseUnknownAiAgent(input);
  const brandProfileId = await brandProfileFor(app, system, input.brand_profile_id);
  const linkTrackingProfileId = await checkedLinkTrackingProfileId(
    app,
    workspaceId,
    input.link_tracking_profile_id,
  );
  const { defaultLocale, locales } = localesOf(input);

  let content: EmailContent;
  if (input.layout_id !== undefined) {
    const [layout] = await app.database.db
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
    const { rows } = await designSystemComponents(app, system.id);
    const container = rows.find((component) => component.container);
    if (!container) {
      throw ValidationError.field(
        'email_design_system_id',
        'has no container component to start an email from',
      );
    }
    content = initialContent(container.id, locales);
  }

  const email = await app.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emails)
      .values({
        organizationId: principal.organizationId,
        workspaceId,
        projectId: input.project_id,
        emailDesignSystemId: system.id,
        brandProfileId,
        linkTrackingProfileId: linkTrackingProfileId ?? null,
        name: input.name,
        defaultLocale,
        locales,
        content: content as unknown as Record<string, unknown>,
        lastUpdatedById: principal.userId,
      })
      .returning();
    if (!row) throw new Error('email insert returned nothing');
    await recordVersion(tx, row, principal);
    return row;
  });
  return getEmail(app, principal, workspaceId, email.id);
}

interface EmailChange {
  name?: string;
  projectId?: number;
  content?: EmailContent;
  locales?: string[];
  defaultLocale?: string;
  brandProfileId?: number | null;
  linkTrackingProfileId?: number | null;
}

/**
 * The one way an email's fields change (PATCH and version restore): published emails refuse,
 * content is checked against the design system, the permission keys the change needs are
 * required, and a write naming the version it was based on only lands on that version (409 otherwise). A content
 * or locale change records a version.
 */
async function changeEmail(
  app: App,
  principal: Principal,
  workspaceId: number,
  current: EmailRow,
  change: EmailChange,
  basedOnLockVersion: number | undefined,
) {
  if (basedOnLockVersion !== undefined && basedOnLockVersion !== current.lockVersion) {
    await throwConflict(app, principal, workspaceId, current.id);
  }
  // In review and approved, what ships is frozen; the name and the project are not part of it.
  const frozenForReview = current.status === 'in_review' || current.status === 'approved';
  if (!frozenForReview || changesWhatShips(change)) assertEditable(current.status);

  const currentContent = contentOf(current);
  const nextLocales = change.locales ?? current.locales;
  const { defaultLocale, locales } = localesOf({
    locales: nextLocales,
    // Removing the default locale moves the default to the first one left, unless one is named.
    default_locale:
      change.defaultLocale ??
      (nextLocales.includes(current.defaultLocale) ? current.defaultLocale : undefined),
  });
  const content = change.content ?? withoutLocalesOutside(currentContent, locales);
  // Saving what is already there (an autosave with nothing new) records no version.
  const contentChanged = !valuesEqual(content, currentContent) || !valuesEqual(locales, current.locales);

  if (change.projectId !== undefined && change.projectId !== current.projectId) {
    await findVisibleProject(app, principal, workspaceId, change.projectId).catch(() => {
      throw ValidationError.field('project_id', 'is not a project of this workspace that you can see');
    });
  }
  if (change.brandProfileId !== undefined) {
    const system = await findVisibleDesignSystem(app, principal, workspaceId, current.emailDesignSystemId);
    await brandProfileFor(app, system, change.brandProfileId);
  }
  await checkedLinkTrackingProfileId(app, workspaceId, change.linkTrackingProfileId);
  if (change.content !== undefined) {
    const { rows } = await designSystemComponents(app, current.emailDesignSystemId);
    const problems = emailContentProblems(
      rows.map((row) => ({ ...row, fieldDefinitions: row.fieldDefinitions })),
      change.content,
      locales,
      currentContent,
    );
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  }
  for (const permission of permissionsForContentChange(
    { content: currentContent, locales: current.locales },
    { content, locales },
  )) {
    requirePermission(principal, permission);
  }
  // Checked once the change is known to be allowed: a 403 comes before details of the workspace.
  if (change.content !== undefined) {
    const problems = await conditionalProblems(app, workspaceId, change.content);
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  }

  const updated = await app.database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(emails)
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.projectId !== undefined ? { projectId: change.projectId } : {}),
        ...(change.brandProfileId !== undefined ? { brandProfileId: change.brandProfileId } : {}),
        ...(change.linkTrackingProfileId !== undefined
          ? { linkTrackingProfileId: change.linkTrackingProfileId }
          : {}),
        ...(contentChanged ? { content: content as unknown as Record<string, unknown>, locales } : {}),
        defaultLocale,
        // lock_version names the content that was approved: a rename during review keeps it.
        lockVersion: frozenForReview ? current.lockVersion : sql`${emails.lockVersion} + 1`,
        lastUpdatedById: principal.userId,
      })
      .where(
        and(
          eq(emails.id, current.id),
          // Only a writer who names the version it loaded is protected; without one the last write wins.
          basedOnLockVersion !== undefined ? eq(emails.lockVersion, basedOnLockVersion) : undefined,
        ),
      )
      .returning();
    if (row && contentChanged) await recordVersion(tx, row, principal);
    if (row)
      await announceEmailEvent(tx, {
        type: 'content_changed',
        email_id: row.id,
        lock_version: row.lockVersion,
      });
    return row;
  });
  // Someone else's write landed between our read and our write.
  if (!updated) await throwConflict(app, principal, workspaceId, current.id);
  return getEmail(app, principal, workspaceId, current.id);
}

/** Whether a change touches what the email ships as: content, locales, profiles. */
function changesWhatShips(change: EmailChange): boolean {
  return (
    change.content !== undefined ||
    change.locales !== undefined ||
    change.defaultLocale !== undefined ||
    change.brandProfileId !== undefined ||
    change.linkTrackingProfileId !== undefined
  );
}

async function throwConflict(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<never> {
  const email = await getEmail(app, principal, workspaceId, id);
  throw new ConflictError(
    'This email was changed since you loaded it; nothing was saved. Reload it, or send the current lock_version to overwrite',
    {
      lock_version: email.lock_version,
      email,
    },
  );
}

export async function updateEmail(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateEmailBody>,
) {
  const { email } = await findVisibleEmail(app, principal, workspaceId, id);
  refuseUnknownAiAgent(input);
  return changeEmail(
    app,
    principal,
    workspaceId,
    email,
    {
      name: input.name,
      projectId: input.project_id,
      content: input.email_content as EmailContent | undefined,
      locales: input.locales,
      defaultLocale: input.default_locale,
      brandProfileId: input.brand_profile_id,
      linkTrackingProfileId: input.link_tracking_profile_id,
    },
    input.lock_version,
  );
}

export async function deleteEmail(app: App, principal: Principal, workspaceId: number, id: number) {
  await findVisibleEmail(app, principal, workspaceId, id);
  await app.database.db.delete(emails).where(eq(emails.id, id));
}

export async function listEmailVersions(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
  page: PageRequest,
) {
  await findVisibleEmail(app, principal, workspaceId, id);
  const [rows, [total]] = await Promise.all([
    app.database.db
      .select({ version: emailVersions, editor: editorColumns })
      .from(emailVersions)
      .leftJoin(users, eq(users.id, emailVersions.lastUpdatedById))
      .where(eq(emailVersions.emailId, id))
      .orderBy(desc(emailVersions.id))
      .limit(page.limit)
      .offset(page.offset),
    app.database.db.select({ value: count() }).from(emailVersions).where(eq(emailVersions.emailId, id)),
  ]);
  const results: Static<typeof EmailVersion>[] = rows.map(({ version, editor }) => ({
    version_id: version.versionId,
    email_data: version.emailData as Static<typeof EmailVersion>['email_data'],
    created_at: version.createdAt,
    last_updated_by: editor ? toUserReference(editor) : null,
  }));
  return listBody(results, total?.value ?? 0, page);
}

/** Makes an earlier version current again, as a new version: history only ever grows. */
export async function restoreEmailVersion(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
  versionId: string,
) {
  const { email } = await findVisibleEmail(app, principal, workspaceId, id);
  const [version] = await app.database.db
    .select()
    .from(emailVersions)
    .where(and(eq(emailVersions.emailId, id), eq(emailVersions.versionId, versionId)));
  if (!version) throw new NotFoundError('No such version of this email');
  const locales = version.emailData.locales;
  return changeEmail(
    app,
    principal,
    workspaceId,
    email,
    {
      content: version.emailData.email_content as unknown as EmailContent,
      locales,
      defaultLocale: locales.includes(email.defaultLocale) ? email.defaultLocale : locales[0],
    },
    undefined,
  );
}

export async function moveEmailStatus(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
  move: EmailMove,
) {
  await findVisibleEmail(app, principal, workspaceId, id);
  await app.database.db.transaction(async (tx) => {
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
  return getEmail(app, principal, workspaceId, id);
}

export async function cloneEmail(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof CloneEmailBody>,
) {
  const { email } = await findVisibleEmail(app, principal, workspaceId, id);
  if (input.clone_with_ai) {
    throw ValidationError.field(
      'clone_with_ai',
      'is not available: this server has no AI provider configured',
    );
  }
  refuseUnknownAiAgent(input);
  const copy = await app.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emails)
      .values({
        organizationId: email.organizationId,
        workspaceId,
        projectId: email.projectId,
        emailDesignSystemId: email.emailDesignSystemId,
        brandProfileId: email.brandProfileId,
        linkTrackingProfileId: email.linkTrackingProfileId,
        name: input.name,
        defaultLocale: email.defaultLocale,
        locales: email.locales,
        content: email.content,
        lastUpdatedById: principal.userId,
      })
      .returning();
    if (!row) throw new Error('email insert returned nothing');
    await recordVersion(tx, row, principal);
    return row;
  });
  return getEmail(app, principal, workspaceId, copy.id);
}
