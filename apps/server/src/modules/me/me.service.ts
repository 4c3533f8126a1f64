import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import {
  organizations,
  roles,
  sessions,
  teamMemberships,
  users,
  workspaceMemberships,
  workspaces,
} from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { PrincipalCache } from '../../http/principal-cache.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import { generateTotpSecret, totpUri, verifyTotp } from '../../security/totp.ts';
import type { Services } from '../../services.ts';
import { toRoleResponse } from '../roles/roles.service.ts';
import { findUser, toUserResponseOf } from '../users/users.serializers.ts';
import { toWorkspaceResponse } from '../workspaces/workspaces.service.ts';
import type { Me, UpdateMeBody } from './me.schemas.ts';

/** What every `/me` of an organization shows alike, read once while its access data stands. */
interface OrganizationDirectory {
  organization: { id: number; name: string };
  roles: Map<number, typeof roles.$inferSelect>;
  /** By name, as `/me` lists them. */
  workspaces: (typeof workspaces.$inferSelect)[];
}

async function readOrganizationDirectory(
  db: Database,
  organizationId: number,
): Promise<OrganizationDirectory> {
  const [[organization], roleRows, workspaceRows] = await Promise.all([
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, organizationId)),
    db.select().from(roles).where(eq(roles.organizationId, organizationId)),
    db
      .select()
      .from(workspaces)
      .where(eq(workspaces.organizationId, organizationId))
      .orderBy(asc(workspaces.name), asc(workspaces.id)),
  ]);
  if (!organization) throw new NotFoundError();
  return { organization, roles: new Map(roleRows.map((role) => [role.id, role])), workspaces: workspaceRows };
}

/** The live user with their workspace and team memberships, in one query. */
async function findUserWithMemberships(db: Database, principal: Principal) {
  const [row] = await db
    .select({
      user: users,
      workspaceIds: sql<
        number[]
      >`array(select ${workspaceMemberships.workspaceId} from ${workspaceMemberships} where ${workspaceMemberships.userId} = ${users.id})`,
      teamIds: sql<
        number[]
      >`array(select ${teamMemberships.teamId} from ${teamMemberships} where ${teamMemberships.userId} = ${users.id})`,
    })
    .from(users)
    .where(
      and(
        eq(users.id, principal.userId),
        eq(users.organizationId, principal.organizationId),
        isNull(users.deletedAt),
      ),
    );
  return row;
}

/**
 * Everything the web app needs to know about who is signed in, in one call: one query for the
 * person, and the organization's name, roles and workspaces from `answers` (the principal cache,
 * forgotten with any change of them).
 */
export async function describeMe(
  services: Pick<Services, 'database'>,
  principal: Principal,
  answers: Pick<PrincipalCache, 'answer'>,
): Promise<Static<typeof Me>> {
  const db = services.database.db;
  const [person, directory] = await Promise.all([
    findUserWithMemberships(db, principal),
    answers.answer(principal.organizationId, 'me:directory', () =>
      readOrganizationDirectory(db, principal.organizationId),
    ),
  ]);
  const role = directory.roles.get(principal.roleId);
  if (!person || !role) throw new NotFoundError();
  const memberOf = new Set(person.workspaceIds);
  const seesAll = principal.permissions.has('access_all_workspaces');
  return {
    user: toUserResponseOf(person.user, {
      roleName: directory.roles.get(person.user.roleId)?.name ?? '',
      workspaceIds: person.workspaceIds,
      teamIds: person.teamIds,
      now: new Date(),
    }),
    organization: directory.organization,
    role: toRoleResponse(role),
    permissions: [...principal.permissions],
    workspaces: directory.workspaces
      .filter((workspace) => seesAll || memberOf.has(workspace.id))
      .map(toWorkspaceResponse),
  };
}

export async function updateMe(
  services: Pick<Services, 'database'>,
  principal: Principal,
  input: Static<typeof UpdateMeBody>,
  answers: Pick<PrincipalCache, 'answer'>,
) {
  const db = services.database.db;
  const changes: Partial<typeof users.$inferInsert> = {
    ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
    ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
    ...(input.wants_marketing_emails !== undefined
      ? { wantsMarketingEmails: input.wants_marketing_emails }
      : {}),
    ...(input.disabled_email_notifications !== undefined
      ? { disabledEmailNotifications: input.disabled_email_notifications }
      : {}),
  };
  if (input.new_password !== undefined) {
    const user = await findUser(db, principal.organizationId, principal.userId);
    if (input.current_password === undefined)
      throw ValidationError.field('current_password', 'is required to change your password');
    if (!(await verifyPassword(user?.passwordHash ?? null, input.current_password))) {
      throw ValidationError.field('current_password', 'is not your current password');
    }
    changes.passwordHash = await hashPassword(input.new_password);
  }
  if (Object.keys(changes).length > 0) {
    await db.update(users).set(changes).where(eq(users.id, principal.userId));
  }
  if (changes.passwordHash && principal.sessionTokenHash) {
    // A new password signs out every other browser: whoever knew the old one is out.
    await db
      .delete(sessions)
      .where(and(eq(sessions.userId, principal.userId), ne(sessions.tokenHash, principal.sessionTokenHash)));
  }
  return describeMe(services, principal, answers);
}

export async function startTwoFactorEnrolment(services: Pick<Services, 'database'>, principal: Principal) {
  const user = await findUser(services.database.db, principal.organizationId, principal.userId);
  if (!user) throw new NotFoundError();
  if (user.twoFactorEnabled)
    throw ValidationError.field('base', 'Two-factor authentication is already on; turn it off first');
  const secret = generateTotpSecret();
  await services.database.db.update(users).set({ twoFactorSecret: secret }).where(eq(users.id, user.id));
  return { secret, otpauth_uri: totpUri(secret, user.email) };
}

export async function confirmTwoFactor(
  services: Pick<Services, 'database'>,
  principal: Principal,
  code: string,
  answers: Pick<PrincipalCache, 'answer'>,
) {
  const user = await findUser(services.database.db, principal.organizationId, principal.userId);
  if (!user?.twoFactorSecret) throw ValidationError.field('base', 'Start two-factor enrolment first');
  if (!verifyTotp(user.twoFactorSecret, code, Date.now()))
    throw ValidationError.field('code', 'is not right; check your authenticator app');
  await services.database.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, user.id));
  return describeMe(services, principal, answers);
}

export async function disableTwoFactor(
  services: Pick<Services, 'database'>,
  principal: Principal,
  code: string,
  answers: Pick<PrincipalCache, 'answer'>,
) {
  const user = await findUser(services.database.db, principal.organizationId, principal.userId);
  if (!user?.twoFactorEnabled || !user.twoFactorSecret)
    throw ValidationError.field('base', 'Two-factor authentication is not on');
  if (!verifyTotp(user.twoFactorSecret, code, Date.now()))
    throw ValidationError.field('code', 'is not right; check your authenticator app');
  await services.database.db
    .update(users)
    .set({ twoFactorEnabled: false, twoFactorSecret: null })
    .where(eq(users.id, user.id));
  return describeMe(services, principal, answers);
}
