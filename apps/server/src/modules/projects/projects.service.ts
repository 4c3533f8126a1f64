import { and, asc, count, eq, ilike, inArray, type Placeholder, type SQL } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { escapeLikePattern } from '../../db/like.ts';
import { updateReturning } from '../../db/record-updates.ts';
import { emails, projects, teamMemberships, teams } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import type { CreateProjectBody, ListProjectsQuery, Project, UpdateProjectBody } from './projects.schemas.ts';

type ProjectRow = typeof projects.$inferSelect;
type TeamRow = typeof teams.$inferSelect;

function toProjectResponse(row: ProjectRow, team: TeamRow): Static<typeof Project> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organization_id: row.organizationId,
    team_id: row.teamId,
    team: {
      id: team.id,
      name: team.name,
      badge_color: team.badgeColor,
      workspace_id: team.workspaceId,
      created_at: team.createdAt,
      updated_at: team.updatedAt,
    },
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * The projects a principal may see: those of its teams, or all of them with
 * `access_all_projects`. Emails follow their project, so the emails module uses this too.
 */
export function visibleProjectsFilter(
  services: Pick<Services, 'database'>,
  principal: Principal,
): SQL | undefined {
  if (principal.permissions.has('access_all_projects')) return undefined;
  return teamProjectsFilter(services.database.db, principal.userId);
}

/** Projects of the teams a user belongs to; `userId` may be a placeholder of a prepared query. */
export function teamProjectsFilter(db: Database, userId: number | Placeholder): SQL {
  return inArray(
    projects.teamId,
    db
      .select({ teamId: teamMemberships.teamId })
      .from(teamMemberships)
      .where(eq(teamMemberships.userId, userId)),
  );
}

export async function listProjects(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  query: Static<typeof ListProjectsQuery>,
  page: PageRequest,
) {
  const where = and(
    eq(projects.workspaceId, workspaceId),
    visibleProjectsFilter(services, principal),
    query.team_id !== undefined ? eq(projects.teamId, query.team_id) : undefined,
    query.search ? ilike(projects.name, `%${escapeLikePattern(query.search)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select({ project: projects, team: teams })
      .from(projects)
      .innerJoin(teams, eq(teams.id, projects.teamId))
      .where(where)
      .orderBy(asc(projects.name), asc(projects.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(projects).where(where),
  ]);
  return listBody(
    rows.map((row) => toProjectResponse(row.project, row.team)),
    total?.value ?? 0,
    page,
  );
}

/** A project of the workspace the principal may see; 404 otherwise, whether it exists or not. */
export async function findVisibleProject(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<{ project: ProjectRow; team: TeamRow }> {
  const [row] = await services.database.db
    .select({ project: projects, team: teams })
    .from(projects)
    .innerJoin(teams, eq(teams.id, projects.teamId))
    .where(
      and(
        eq(projects.id, id),
        eq(projects.workspaceId, workspaceId),
        visibleProjectsFilter(services, principal),
      ),
    );
  if (!row) throw new NotFoundError();
  return row;
}

/**
 * The team a project is given to: a team of this workspace, and one the principal belongs to
 * unless it sees every project (otherwise the project would vanish from its own creator).
 */
async function owningTeam(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  teamId: number,
): Promise<TeamRow> {
  const [team] = await services.database.db
    .select()
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.workspaceId, workspaceId)));
  if (!team) throw ValidationError.field('team_id', 'is not a team of this workspace');
  if (!principal.permissions.has('access_all_projects')) {
    const [membership] = await services.database.db
      .select({ teamId: teamMemberships.teamId })
      .from(teamMemberships)
      .where(and(eq(teamMemberships.teamId, team.id), eq(teamMemberships.userId, principal.userId)));
    if (!membership) throw ValidationError.field('team_id', 'is a team you are not a member of');
  }
  return team;
}

export async function getProject(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
) {
  const { project, team } = await findVisibleProject(services, principal, workspaceId, id);
  return toProjectResponse(project, team);
}

export async function createProject(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateProjectBody>,
) {
  const team = await owningTeam(services, principal, workspaceId, input.team_id);
  const [row] = await services.database.db
    .insert(projects)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      teamId: team.id,
      name: input.name,
      description: input.description ?? null,
    })
    .returning();
  if (!row) throw new Error('project insert returned nothing');
  return toProjectResponse(row, team);
}

export async function updateProject(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateProjectBody>,
) {
  const current = await findVisibleProject(services, principal, workspaceId, id);
  const team =
    input.team_id === undefined || input.team_id === current.team.id
      ? current.team
      : await owningTeam(services, principal, workspaceId, input.team_id);
  const [row] = await updateReturning(services.database.db, projects, eq(projects.id, id), {
    name: input.name,
    description: input.description,
    teamId: input.team_id === undefined ? undefined : team.id,
  });
  if (!row) throw new NotFoundError();
  return toProjectResponse(row, team);
}

/** Names of a project's emails, to say what a deletion would take with it. */
async function emailNamesOf(services: Pick<Services, 'database'>, projectId: number): Promise<string[]> {
  const rows = await services.database.db
    .select({ name: emails.name })
    .from(emails)
    .where(eq(emails.projectId, projectId))
    .orderBy(asc(emails.name))
    .limit(6);
  return rows.map((row) => row.name);
}

export async function deleteProject(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
  deleteEmails: boolean,
) {
  await findVisibleProject(services, principal, workspaceId, id);
  if (!deleteEmails) {
    const names = await emailNamesOf(services, id);
    if (names.length > 0) {
      const listed = names
        .slice(0, 5)
        .map((name) => `“${name}”`)
        .join(', ');
      throw ValidationError.field(
        'delete_emails',
        `the project still has emails (${listed}${names.length > 5 ? ', …' : ''}); ` +
          'send delete_emails=true to delete them with it',
      );
    }
  }
  await services.database.db.delete(projects).where(eq(projects.id, id));
}
