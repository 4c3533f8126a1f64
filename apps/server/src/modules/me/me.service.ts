import { and, asc, eq, ne } from 'drizzle-orm';
import type { Static } from 'typebox';
import { organizations, roles, sessions, users, workspaces } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import { generateTotpSecret, totpUri, verifyTotp } from '../../security/totp.ts';
import type { Services } from '../../services.ts';
import { toRoleResponse } from '../roles/roles.service.ts';
import { findUser, toUserResponse } from '../users/users.serializers.ts';
import { accessibleWorkspacesFilter, toWorkspaceResponse } from '../workspaces/workspaces.service.ts';
import type { Me, UpdateMeBody } from './me.schemas.ts';

/** Everything the web app needs to know about who is signed in, in one call. */
export async function describeMe(
  services: Pick<Services, 'database'>,
  principal: Principal,
): Promise<Static<typeof Me>> {
  const db = services.database.db;
  const user = await findUser(db, principal.organizationId, principal.userId);
  if (!user) throw new NotFoundError();
  const [[organization], [role], workspaceRows, userResponse] = await Promise.all([
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, principal.organizationId)),
    db.select().from(roles).where(eq(roles.id, principal.roleId)),
    db
      .select()
      .from(workspaces)
      .where(accessibleWorkspacesFilter(services, principal))
      .orderBy(asc(workspaces.name)),
    toUserResponse(db, user),
  ]);
  if (!organization || !role) throw new NotFoundError();
  return {
    user: userResponse,
    organization,
    role: toRoleResponse(role),
    permissions: [...principal.permissions],
    workspaces: workspaceRows.map(toWorkspaceResponse),
  };
}

export async function updateMe(
  services: Pick<Services, 'database'>,
  principal: Principal,
  input: Static<typeof UpdateMeBody>,
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
  return describeMe(services, principal);
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
) {
  const user = await findUser(services.database.db, principal.organizationId, principal.userId);
  if (!user?.twoFactorSecret) throw ValidationError.field('base', 'Start two-factor enrolment first');
  if (!verifyTotp(user.twoFactorSecret, code, Date.now()))
    throw ValidationError.field('code', 'is not right; check your authenticator app');
  await services.database.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, user.id));
  return describeMe(services, principal);
}

export async function disableTwoFactor(
  services: Pick<Services, 'database'>,
  principal: Principal,
  code: string,
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
  return describeMe(services, principal);
}
