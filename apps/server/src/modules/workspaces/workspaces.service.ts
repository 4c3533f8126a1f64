import { and, asc, count, eq, exists, inArray } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { teamMemberships, teams, users, workspaceMemberships, workspaces } from '../../db/schema.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { findUser, pageOfLiveUsers, toUserResponse, toUserResponses } from '../users/users.serializers.ts';
import type { CreateWorkspaceBody, UpdateWorkspaceBody, Workspace } from './workspaces.schemas.ts';

type WorkspaceRow = typeof workspaces.$inferSelect;

export function toWorkspaceResponse(row: WorkspaceRow): Static<typeof Workspace> {
  return {
    id: row.id,
    name: row.name,
    auto_join: row.autoJoin,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** Workspaces the principal may enter: its memberships, or all of them with access_all_workspaces. */
export function accessibleWorkspacesFilter(services: Pick<Services, 'database'>, principal: Principal) {
  const inOrganization = eq(workspaces.organizationId, principal.organizationId);
  if (principal.permissions.has('access_all_workspaces')) return inOrganization;
  return and(
    inOrganization,
    exists(
      services.database.db
        .select({ one: workspaceMemberships.userId })
        .from(workspaceMemberships)
        .where(
          and(
            eq(workspaceMemberships.workspaceId, workspaces.id),
            eq(workspaceMemberships.userId, principal.userId),
          ),
        ),
    ),
  );
}

export async function listWorkspaces(
  services: Pick<Services, 'database'>,
  principal: Principal,
  page: PageRequest,
) {
  const where = accessibleWorkspacesFilter(services, principal);
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select()
      .from(workspaces)
      .where(where)
      .orderBy(asc(workspaces.name), asc(workspaces.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(workspaces).where(where),
  ]);
  return listBody(rows.map(toWorkspaceResponse), total?.value ?? 0, page);
}

/** 403 unless the principal is a member of the workspace, or may enter every workspace. */
export async function assertWorkspaceMember(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
): Promise<void> {
  if (principal.permissions.has('access_all_workspaces')) return;
  const [membership] = await services.database.db
    .select()
    .from(workspaceMemberships)
    .where(
      and(
        eq(workspaceMemberships.workspaceId, workspaceId),
        eq(workspaceMemberships.userId, principal.userId),
      ),
    );
  if (!membership) throw new ForbiddenError('You are not a member of this workspace');
}

/** Another organization's workspace is a 404; one of this organization without access, a 403. */
async function findAccessibleWorkspace(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
): Promise<WorkspaceRow> {
  const [row] = await services.database.db
    .select()
    .from(workspaces)
    .where(and(eq(workspaces.id, id), eq(workspaces.organizationId, principal.organizationId)));
  if (!row) throw new NotFoundError();
  await assertWorkspaceMember(services, principal, id);
  return row;
}

export async function getWorkspace(services: Pick<Services, 'database'>, principal: Principal, id: number) {
  return toWorkspaceResponse(await findAccessibleWorkspace(services, principal, id));
}

export async function createWorkspace(
  services: Pick<Services, 'database'>,
  principal: Principal,
  input: Static<typeof CreateWorkspaceBody>,
) {
  const row = await services.database.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(workspaces)
      .values({ organizationId: principal.organizationId, name: input.name, autoJoin: input.auto_join })
      .returning();
    if (!created) throw new Error('workspace insert returned nothing');
    // Whoever creates a workspace can work in it.
    await tx.insert(workspaceMemberships).values({ workspaceId: created.id, userId: principal.userId });
    return created;
  });
  return toWorkspaceResponse(row);
}

export async function updateWorkspace(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
  input: Static<typeof UpdateWorkspaceBody>,
) {
  await findAccessibleWorkspace(services, principal, id);
  const [row] = await updateReturning(services.database.db, workspaces, eq(workspaces.id, id), {
    name: input.name,
    autoJoin: input.auto_join,
  });
  if (!row) throw new NotFoundError();
  return toWorkspaceResponse(row);
}

/** Refused while the workspace holds teams (and so projects and emails): deleting never loses work. */
export async function deleteWorkspace(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
): Promise<void> {
  await findAccessibleWorkspace(services, principal, id);
  const [teamCount] = await services.database.db
    .select({ value: count() })
    .from(teams)
    .where(eq(teams.workspaceId, id));
  if ((teamCount?.value ?? 0) > 0) {
    throw ValidationError.field(
      'base',
      `This workspace still has ${teamCount?.value} team(s); move or delete them first`,
    );
  }
  const [workspaceCount] = await services.database.db
    .select({ value: count() })
    .from(workspaces)
    .where(eq(workspaces.organizationId, principal.organizationId));
  if ((workspaceCount?.value ?? 0) <= 1)
    throw ValidationError.field('base', 'An organization needs at least one workspace');
  await services.database.db.delete(workspaces).where(eq(workspaces.id, id));
}

export async function listWorkspaceMembers(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  page: PageRequest,
) {
  const db = services.database.db;
  const members = db
    .select({ id: workspaceMemberships.userId })
    .from(workspaceMemberships)
    .where(eq(workspaceMemberships.workspaceId, workspaceId));
  const { rows, total } = await pageOfLiveUsers(db, inArray(users.id, members), page);
  return listBody(await toUserResponses(db, rows), total, page);
}

export async function addWorkspaceMember(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  userId: number,
) {
  const user = await findUser(services.database.db, principal.organizationId, userId);
  if (!user) throw ValidationError.field('user_id', 'does not exist');
  await services.database.db
    .insert(workspaceMemberships)
    .values({ workspaceId, userId })
    .onConflictDoNothing();
  return toUserResponse(services.database.db, user);
}

/** Leaving a workspace also means leaving its teams. */
export async function removeWorkspaceMember(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  userId: number,
): Promise<void> {
  const user = await findUser(services.database.db, principal.organizationId, userId);
  if (!user) throw new NotFoundError();
  await services.database.db.transaction(async (tx) => {
    const removed = await tx
      .delete(workspaceMemberships)
      .where(and(eq(workspaceMemberships.workspaceId, workspaceId), eq(workspaceMemberships.userId, userId)))
      .returning();
    if (removed.length === 0) throw new NotFoundError('This user is not a member of the workspace');
    const workspaceTeams = tx.select({ id: teams.id }).from(teams).where(eq(teams.workspaceId, workspaceId));
    await tx
      .delete(teamMemberships)
      .where(and(eq(teamMemberships.userId, userId), inArray(teamMemberships.teamId, workspaceTeams)));
  });
}
