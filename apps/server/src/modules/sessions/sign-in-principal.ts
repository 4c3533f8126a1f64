import { isPermissionKey } from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { roles, users } from '../../db/schema.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';

/**
 * Sets the request's principal to a user who has just proved who they are (sign-in, setup,
 * accepting an invitation), so the answer and the audit entry name them.
 */
export async function authenticateAs(
  services: Pick<Services, 'database'>,
  request: FastifyRequest,
  userId: number,
  via: Principal['via'],
): Promise<Principal> {
  const [row] = await services.database.db
    .select({ organizationId: users.organizationId, roleId: users.roleId, permissions: roles.permissions })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId));
  if (!row) throw new Error(`user ${userId} vanished while signing in`);
  const principal: Principal = {
    userId,
    organizationId: row.organizationId,
    roleId: row.roleId,
    permissions: new Set(row.permissions.filter(isPermissionKey)),
    via,
    sessionTokenHash: null,
    apiKeyId: null,
  };
  request.principal = principal;
  return principal;
}
