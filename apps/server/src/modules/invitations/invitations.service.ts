import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { organizations, users } from '../../db/schema.ts';
import { NotFoundError } from '../../http/errors.ts';
import { hashPassword } from '../../security/passwords.ts';
import { tokenDigest } from '../../security/tokens.ts';
import type { Services } from '../../services.ts';

/** Who an invitation link is for, as long as it is unused and unexpired. */
export async function findInvitation(services: Pick<Services, 'database'>, token: string) {
  const [invitation] = await services.database.db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      organizationName: organizations.name,
    })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(
      and(
        eq(users.invitationTokenHash, tokenDigest(token)),
        gt(users.invitationExpiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    );
  if (!invitation)
    throw new NotFoundError('This invitation link is not valid: it may have been used or have expired');
  return invitation;
}

/** Sets the password and spends the link. */
export async function acceptInvitation(
  services: Pick<Services, 'database'>,
  token: string,
  password: string,
): Promise<number> {
  const invitation = await findInvitation(services, token);
  await services.database.db
    .update(users)
    .set({
      passwordHash: await hashPassword(password),
      invitationTokenHash: null,
      invitationExpiresAt: null,
      invitationAcceptedAt: new Date(),
    })
    .where(eq(users.id, invitation.userId));
  return invitation.userId;
}
