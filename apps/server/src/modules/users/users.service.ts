import { and, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { escapeLikePattern } from '../../db/like.ts';
import {
  apiKeys,
  roles,
  sessions,
  teamMemberships,
  teams,
  users,
  workspaceMemberships,
  workspaces,
} from '../../db/schema.ts';
import { BadRequestError, NotFoundError, ValidationError } from '../../http/errors.ts';
import { assertMayActOn, assertMayGrant, changeAccess } from '../../http/grants.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { sendInvitation } from './invitation-mail.ts';
import type { CreateUserBody } from './users.schemas.ts';
import { findUser, pageOfLiveUsers, toUserResponse, toUserResponses } from './users.serializers.ts';

export async function listUsers(
  services: Pick<Services, 'database'>,
  principal: Principal,
  search: string | undefined,
  page: PageRequest,
) {
  const db = services.database.db;
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

export async function getUser(services: Pick<Services, 'database'>, principal: Principal, id: number) {
  const user = await findUser(services.database.db, principal.organizationId, id);
  if (!user) throw new NotFoundError();
  return toUserResponse(services.database.db, user);
}

export async function inviteUser(
  services: Pick<Services, 'config' | 'database' | 'mailer'>,
  principal: Principal,
  input: Static<typeof CreateUserBody>,
) {
  const db = services.database.db;
  const workspaceIds = input.workspace_ids ?? [];
  const teamIds = input.team_ids ?? [];
  const errors: Record<string, string[]> = {};

  const [role] = await db
    .select({ name: roles.name, permissions: roles.permissions })
    .from(roles)
    .where(and(eq(roles.id, input.role_id), eq(roles.organizationId, principal.organizationId)));
  if (!role) errors.role_id = ['does not exist'];
  // An invitation hands its role to whoever holds the link: only within the inviter's own keys.
  else assertMayGrant(principal, role.permissions, `give the role “${role.name}”`);
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
  await sendInvitation(services, user, inviter ? `${inviter.firstName} ${inviter.lastName}` : 'A colleague');
  return getUser(services, principal, user.id);
}

/**
 * Sends an invited person a new link (valid 7 days from now) and ends the old one: the way on
 * after an invitation expired or got lost. Only for people who have not set a password yet (422),
 * and, like inviting, only within the sender's own keys: the link hands over the person's role (403).
 */
export async function resendInvitation(
  services: Pick<Services, 'config' | 'database' | 'mailer'>,
  principal: Principal,
  id: number,
) {
  const db = services.database.db;
  const user = await findUser(db, principal.organizationId, id);
  if (!user) throw new NotFoundError();
  if (user.invitationAcceptedAt || !user.invitationSentAt) {
    throw ValidationError.field(
      'base',
      `${fullName(user)} has already joined: there is no invitation to send`,
    );
  }
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.id, user.roleId), eq(roles.organizationId, principal.organizationId)));
  assertMayGrant(principal, role?.permissions ?? [], `invite someone as “${role?.name ?? 'this role'}”`);
  const inviter = await findUser(db, principal.organizationId, principal.userId);
  await sendInvitation(services, user, inviter ? `${inviter.firstName} ${inviter.lastName}` : 'A colleague');
  return getUser(services, principal, id);
}

/**
 * Gives a person another role. The caller must hold every key of the person's current role and
 * of the new one (403), and the organization must keep an active holder of update_roles and
 * update_users (422).
 */
export async function changeRole(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
  roleId: number,
) {
  await changeAccess(
    services.database.db,
    principal.organizationId,
    {
      field: 'role_id',
      message:
        'cannot change: nobody else active would hold both update_roles and update_users; give both to someone else first',
    },
    async (tx) => {
      const user = await findUser(tx, principal.organizationId, id);
      if (!user) throw new NotFoundError();
      const [role] = await tx
        .select()
        .from(roles)
        .where(and(eq(roles.id, roleId), eq(roles.organizationId, principal.organizationId)));
      if (!role) throw ValidationError.field('role_id', 'does not exist');
      assertMayActOn(principal, await roleKeysOf(tx, user.roleId), `change the role of ${fullName(user)}`);
      assertMayGrant(principal, role.permissions, `give the role “${role.name}”`);
      await tx.update(users).set({ roleId }).where(eq(users.id, id));
    },
  );
  return getUser(services, principal, id);
}

/**
 * Removes a person: they can no longer sign in, and their API keys are revoked; their authorship
 * stays. The caller must hold every key of the person's role (403), and the organization must
 * keep an active holder of update_roles and update_users (422).
 */
export async function removeUser(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
): Promise<void> {
  if (id === principal.userId) throw new BadRequestError('You cannot remove yourself');
  await changeAccess(
    services.database.db,
    principal.organizationId,
    {
      field: 'base',
      message:
        'This is the last active person holding update_roles and update_users; give both to someone else first',
    },
    async (tx) => {
      const user = await findUser(tx, principal.organizationId, id);
      if (!user) throw new NotFoundError();
      assertMayActOn(principal, await roleKeysOf(tx, user.roleId), `remove ${fullName(user)}`);
      const now = new Date();
      await tx
        .update(users)
        .set({ deletedAt: now, invitationTokenHash: null, invitationExpiresAt: null })
        .where(eq(users.id, id));
      await tx.delete(sessions).where(eq(sessions.userId, id));
      // A key never outlives its owner: revoked, not merely refused, so no list shows it as live.
      await tx
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.userId, id), isNull(apiKeys.revokedAt)));
      await tx.delete(workspaceMemberships).where(eq(workspaceMemberships.userId, id));
      await tx.delete(teamMemberships).where(eq(teamMemberships.userId, id));
    },
  );
}

async function roleKeysOf(db: Database, roleId: number): Promise<string[]> {
  const [role] = await db.select({ permissions: roles.permissions }).from(roles).where(eq(roles.id, roleId));
  return role?.permissions ?? [];
}

function fullName(user: { firstName: string; lastName: string }): string {
  return `${user.firstName} ${user.lastName}`;
}
