import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import {
  projects,
  teamMemberships,
  teams,
  users,
  workspaceMemberships,
  workspaces,
} from '../../db/schema.ts';
import { NotFoundError, quotedNames, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { findUser, pageOfLiveUsers, toUserResponses } from '../users/users.serializers.ts';
import { accessibleWorkspacesFilter, assertWorkspaceMember } from '../workspaces/workspaces.service.ts';
import type { CreateTeamBody, Team, TeamMember, UpdateTeamBody } from './teams.schemas.ts';

type TeamRow = typeof teams.$inferSelect;

function toTeamResponse(row: TeamRow): Static<typeof Team> {
  return {
    id: row.id,
    name: row.name,
    badge_color: row.badgeColor,
    workspace_id: row.workspaceId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function accessibleWorkspaceIds(services: Pick<Services, 'database'>, principal: Principal) {
  return services.database.db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(accessibleWorkspacesFilter(services, principal));
}

export async function listTeams(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number | undefined,
  page: PageRequest,
) {
  const where = and(
    eq(teams.organizationId, principal.organizationId),
    inArray(teams.workspaceId, accessibleWorkspaceIds(services, principal)),
    workspaceId !== undefined ? eq(teams.workspaceId, workspaceId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select()
      .from(teams)
      .where(where)
      .orderBy(asc(teams.name), asc(teams.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(teams).where(where),
  ]);
  return listBody(rows.map(toTeamResponse), total?.value ?? 0, page);
}

/** A team of the organization in a workspace the principal can enter (404 across organizations, 403 otherwise). */
async function findTeam(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
): Promise<TeamRow> {
  const [row] = await services.database.db
    .select()
    .from(teams)
    .where(and(eq(teams.id, id), eq(teams.organizationId, principal.organizationId)));
  if (!row) throw new NotFoundError();
  await assertWorkspaceMember(services, principal, row.workspaceId);
  return row;
}

export async function getTeam(services: Pick<Services, 'database'>, principal: Principal, id: number) {
  return toTeamResponse(await findTeam(services, principal, id));
}

export async function createTeam(
  services: Pick<Services, 'database'>,
  principal: Principal,
  input: Static<typeof CreateTeamBody>,
) {
  const [workspace] = await services.database.db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(
      and(eq(workspaces.id, input.workspace_id), eq(workspaces.organizationId, principal.organizationId)),
    );
  if (!workspace) throw ValidationError.field('workspace_id', 'does not exist');
  await assertWorkspaceMember(services, principal, workspace.id);
  const [row] = await services.database.db
    .insert(teams)
    .values({
      organizationId: principal.organizationId,
      workspaceId: workspace.id,
      name: input.name,
      badgeColor: input.badge_color,
    })
    .returning();
  if (!row) throw new Error('team insert returned nothing');
  return toTeamResponse(row);
}

export async function updateTeam(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
  input: Static<typeof UpdateTeamBody>,
) {
  await findTeam(services, principal, id);
  const [row] = await updateReturning(services.database.db, teams, eq(teams.id, id), {
    name: input.name,
    badgeColor: input.badge_color,
  });
  if (!row) throw new NotFoundError();
  return toTeamResponse(row);
}

export async function deleteTeam(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
): Promise<void> {
  await findTeam(services, principal, id);
  const owned = await services.database.db
    .select({ name: projects.name })
    .from(projects)
    .where(eq(projects.teamId, id))
    .orderBy(asc(projects.name))
    .limit(6);
  if (owned.length > 0) {
    throw ValidationError.field(
      'team',
      `still owns projects (${quotedNames(owned.map((project) => project.name))}); give them to another team first`,
    );
  }
  await services.database.db.delete(teams).where(eq(teams.id, id));
}

async function toTeamMembers(
  services: Pick<Services, 'database'>,
  rows: (typeof users.$inferSelect)[],
): Promise<Static<typeof TeamMember>[]> {
  const responses = await toUserResponses(services.database.db, rows);
  return responses.map((user) => ({
    ...user,
    organization_membership: {
      role_id: user.role_id,
      invitation_sent_at: user.invitation_sent_at,
      invitation_accepted_at: user.invitation_accepted_at,
    },
  }));
}

export async function listTeamMembers(
  services: Pick<Services, 'database'>,
  principal: Principal,
  teamId: number,
  page: PageRequest,
) {
  await findTeam(services, principal, teamId);
  const members = services.database.db
    .select({ id: teamMemberships.userId })
    .from(teamMemberships)
    .where(eq(teamMemberships.teamId, teamId));
  const { rows, total } = await pageOfLiveUsers(services.database.db, inArray(users.id, members), page);
  return listBody(await toTeamMembers(services, rows), total, page);
}

/** Team members must belong to the team's workspace: a team never reaches past its workspace. */
export async function addTeamMember(
  services: Pick<Services, 'database'>,
  principal: Principal,
  teamId: number,
  userId: number,
) {
  const team = await findTeam(services, principal, teamId);
  const user = await findUser(services.database.db, principal.organizationId, userId);
  if (!user) throw ValidationError.field('user_id', 'does not exist');
  const [membership] = await services.database.db
    .select()
    .from(workspaceMemberships)
    .where(
      and(eq(workspaceMemberships.workspaceId, team.workspaceId), eq(workspaceMemberships.userId, userId)),
    );
  if (!membership) throw ValidationError.field('user_id', 'must first be a member of the team’s workspace');
  await services.database.db.insert(teamMemberships).values({ teamId, userId }).onConflictDoNothing();
  const [member] = await toTeamMembers(services, [user]);
  if (!member) throw new Error('toTeamMembers dropped a row');
  return member;
}

export async function removeTeamMember(
  services: Pick<Services, 'database'>,
  principal: Principal,
  teamId: number,
  userId: number,
): Promise<void> {
  await findTeam(services, principal, teamId);
  const removed = await services.database.db
    .delete(teamMemberships)
    .where(and(eq(teamMemberships.teamId, teamId), eq(teamMemberships.userId, userId)))
    .returning();
  if (removed.length === 0) throw new NotFoundError('This user is not a member of the team');
}
