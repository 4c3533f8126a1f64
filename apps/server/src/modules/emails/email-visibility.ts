import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { BatchedReads } from '../../db/batched-reads.ts';
import type { Database } from '../../db/client.ts';
import { perDatabase } from '../../db/per-database.ts';
import { emails, projects, users } from '../../db/schema.ts';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { NotFoundError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { teamProjectsFilter, visibleProjectsFilter } from '../projects/projects.service.ts';
import {
  type Editor,
  type EmailRow,
  editorColumns,
  toEmailResponse,
  toEmailSummary,
} from './emails.serializers.ts';

/** Emails of the workspace whose project the principal may see; the rest answer 404. */
export function visibleEmails(
  services: Services,
  principal: Principal,
  workspaceId: number,
  ...conditions: (SQL | undefined)[]
) {
  return and(eq(emails.workspaceId, workspaceId), visibleProjectsFilter(services, principal), ...conditions);
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
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<{ email: EmailRow; editor: Editor }> {
  const query = visibleEmailQueries(services.database.db)[projectsSeenBy(principal)];
  const [row] = await query.execute({ workspaceId, id, userId: principal.userId });
  if (!row) throw new NotFoundError();
  return row;
}

/** The email a route's `email_id` names in the request's workspace, if the caller may see it (404 otherwise). */
export async function findRequestedEmail(
  services: Services,
  request: FastifyRequest & { params: { email_id: number } },
): Promise<EmailRow> {
  const { email } = await findVisibleEmail(
    services,
    principalOf(request),
    workspaceOf(request).id,
    request.params.email_id,
  );
  return email;
}

export async function getEmail(services: Services, principal: Principal, workspaceId: number, id: number) {
  const { email, editor } = await findVisibleEmail(services, principal, workspaceId, id);
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
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<Buffer> {
  const projectsSeen = projectsSeenBy(principal);
  const group = `${workspaceId}/${projectsSeen === 'all' ? 'all' : `teams_of_${principal.userId}`}`;
  const json = await emailJsonReads(services.database.db).read(group, id, async (ids) => {
    const query = visibleEmailJsonQueries(services.database.db)[projectsSeen];
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
