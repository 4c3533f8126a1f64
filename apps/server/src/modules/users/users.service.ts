import { and, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import { escapeLikePattern } from '../../db/like.ts';
import {
  roles,
  sessions,
  teamMemberships,
  teams,
  users,
  workspaceMemberships,
  workspaces,
} from '../../db/schema.ts';
import type { Principal } from '../../http/access.ts';
import { BadRequestError, NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import { sendInvitation } from '../invitations/invitations.service.ts';
import type { CreateUserBody } from './users.schemas.ts';
import { findUser, pageOfLiveUsers, toUserResponse, toUserResponses } from './users.serializers.ts';

export async function listUsers(
  app: App,
  principal: Principal,
  search: string | undefined,
  page: PageRequest,
) {
  const db = app.database.db;
  const pattern = search ? `%${escapeLikePattern(search)}%` : undefined;
  const { rows, total } = await pageOfLiveUsers(
    db,
    and(
      eq(users.organizationId, principal.organizationId),
      pattern
        ? or(
            ilike(users.firstName, pattern),
            ilike(users.lastName, pattern),
            ilike(users.email, pattern),
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          )
        : undefined,
    ),
    page,
  );
  return listBody(await toUserResponses(db, rows), total, page);
}

export async function getUser(app: App, principal: Principal, id: number) {
  const user = await findUser(app.database.db, principal.organizationId, id);
  if (!user) throw new NotFoundError();
  return toUserResponse(app.database.db, user);
}

export async function inviteUser(app: App, principal: Principal, input: Static<typeof CreateUserBody>) {
  const db = app.database.db;
  const workspaceIds = input.workspace_ids ?? [];
  const teamIds = input.team_ids ?? [];
  const errors: Record<string, string[]> = {};

  const [role] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.id, input.role_id), eq(roles.organizationId, principal.organizationId)));
  if (!role) errors.role_id = ['does not exist'];
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${input.email})`, isNull(users.deletedAt)));
  if (existing) errors.email = ['is already taken'];
  const knownWorkspaces =
    workspaceIds.length === 0
      ? []
      : await db
          .select({ id: workspaces.id })
          .from(workspaces)
          .where(
            and(
              inArray(workspaces.id, workspaceIds),
              eq(workspaces.organizationId, principal.organizationId),
            ),
          );
  if (knownWorkspaces.length !== workspaceIds.length)
    errors.workspace_ids = ['include a workspace that does not exist'];
  const knownTeams =
    teamIds.length === 0
      ? []
      : await db
          .select({ id: teams.id, workspaceId: teams.workspaceId })
          .from(teams)
          .where(and(inArray(teams.id, teamIds), eq(teams.organizationId, principal.organizationId)));
  if (knownTeams.length !== teamIds.length) errors.team_ids = ['include a team that does not exist'];
  else if (knownTeams.some((team) => !workspaceIds.includes(team.workspaceId))) {
    errors.team_ids = ['must belong to the selected workspaces'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const user = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({
        organizationId: principal.organizationId,
        roleId: input.role_id,
        firstName: input.first_name,
        lastName: input.last_name,
        email: input.email,
      })
      .returning();
    if (!created) throw new Error('user insert returned nothing');
    const autoJoined = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.organizationId, principal.organizationId), eq(workspaces.autoJoin, true)));
    const memberOf = new Set([...workspaceIds, ...autoJoined.map((workspace) => workspace.id)]);
    if (memberOf.size > 0) {
      await tx
        .insert(workspaceMemberships)
        .values([...memberOf].map((workspaceId) => ({ workspaceId, userId: created.id })));
    }
    if (teamIds.length > 0) {
      await tx.insert(teamMemberships).values(teamIds.map((teamId) => ({ teamId, userId: created.id })));
    }
    return created;
  });

  const inviter = await findUser(db, principal.organizationId, principal.userId);
  await sendInvitation(app, user, inviter ? `${inviter.firstName} ${inviter.lastName}` : 'A colleague');
  return getUser(app, principal, user.id);
}

export async function changeRole(app: App, principal: Principal, id: number, roleId: number) {
  const db = app.database.db;
  const user = await findUser(db, principal.organizationId, id);
  if (!user) throw new NotFoundError();
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.organizationId, principal.organizationId)));
  if (!role) throw ValidationError.field('role_id', 'does not exist');
  if (!isAdminRole(role) && (await isLastAdmin(app, principal.organizationId, id))) {
    throw ValidationError.field('role_id', 'cannot change: this is the last Admin of the organization');
  }
  await db.update(users).set({ roleId }).where(eq(users.id, id));
  return getUser(app, principal, id);
}

/** Removes a person: they can no longer sign in or use their API keys; their authorship stays. */
export async function removeUser(app: App, principal: Principal, id: number): Promise<void> {
  const db = app.database.db;
  if (id === principal.userId) throw new BadRequestError('You cannot remove yourself');
  const user = await findUser(db, principal.organizationId, id);
  if (!user) throw new NotFoundError();
  if (await isLastAdmin(app, principal.organizationId, id)) {
    throw new BadRequestError('This is the last Admin of the organization; make someone else Admin first');
  }
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ deletedAt: new Date(), invitationTokenHash: null, invitationExpiresAt: null })
      .where(eq(users.id, id));
    await tx.delete(sessions).where(eq(sessions.userId, id));
    await tx.delete(workspaceMemberships).where(eq(workspaceMemberships.userId, id));
    await tx.delete(teamMemberships).where(eq(teamMemberships.userId, id));
  });
}

function isAdminRole(role: Pick<typeof roles.$inferSelect, 'builtin' | 'name'>): boolean {
  return role.builtin && role.name === 'Admin';
}

async function isLastAdmin(app: App, organizationId: number, userId: number): Promise<boolean> {
  const admins = await app.database.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(users.organizationId, organizationId),
        isNull(users.deletedAt),
        eq(roles.builtin, true),
        eq(roles.name, 'Admin'),
      ),
    );
  return admins.length === 1 && admins[0]?.id === userId;
}
