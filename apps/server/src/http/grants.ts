import { administers, keysBeyond } from '@letterset/core';
import { and, count, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { organizations, roles, users } from '../db/schema.ts';
import { ForbiddenError, ValidationError } from './errors.ts';
import type { Principal } from './principal.ts';

/**
 * The server's side of the grant rule (`keysBeyond` in core): nobody gives, or takes from
 * someone, a key they do not hold. Every route that assigns roles or keys goes through here.
 */

/** The `code` of a 403 for a grant (or an act on someone) beyond the caller's own keys. */
export const grantBeyondOwnKeysCode = 'grant_beyond_own_keys';
/** The `code` of a 422 for a change that would leave nobody able to manage users and roles. */
export const lastAdministratorCode = 'last_administrator';

type Caller = Pick<Principal, 'permissions'>;

/**
 * 403 unless the caller holds every key that `action` would hand out: a role given to someone,
 * the keys of a new role, the new keys of a role. `action` completes "You cannot …".
 */
export function assertMayGrant(caller: Caller, givenKeys: Iterable<string>, action: string): void {
  const missing = keysBeyond(caller.permissions, givenKeys);
  if (missing.length > 0) {
    throw new ForbiddenError(
      `You cannot ${action}: it grants keys you do not hold (${missing.join(', ')})`,
      grantBeyondOwnKeysCode,
    );
  }
}

/**
 * 403 unless the caller holds every key of the person or role acted on (changing someone's role,
 * removing them, editing or deleting a role): otherwise a narrow manager could demote or remove
 * the people above them. `action` completes "You cannot …".
 */
export function assertMayActOn(caller: Caller, theirKeys: Iterable<string>, action: string): void {
  const missing = keysBeyond(caller.permissions, theirKeys);
  if (missing.length > 0) {
    throw new ForbiddenError(
      `You cannot ${action}: it holds keys you do not hold (${missing.join(', ')})`,
      grantBeyondOwnKeysCode,
    );
  }
}

/** Where to put the 422 of a change that would leave the organization without an administrator. */
export interface LastAdministratorRefusal {
  field: string;
  message: string;
}

/**
 * Runs `change` (roles, people's roles, removals) in one transaction that first locks the
 * organization's row, so that two such changes of one organization never run side by side, and
 * refuses it (422, rolled back) when it leaves no active person holding both `update_roles` and
 * `update_users` where one did before: nobody could then give anyone those keys again. `change`
 * must use the `tx` it is given, never the outer database (PGlite has one connection: it would
 * wait for this transaction forever).
 */
export async function changeAccess<T>(
  db: Database,
  organizationId: number,
  refusal: LastAdministratorRefusal,
  change: (tx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for('update');
    const before = await countAdministrators(tx, organizationId);
    const result = await change(tx);
    if (before > 0 && (await countAdministrators(tx, organizationId)) === 0) {
      throw new ValidationError(
        { [refusal.field]: [refusal.message] },
        'Failed to save',
        lastAdministratorCode,
      );
    }
    return result;
  });
}

/**
 * Active people (not removed, invitation accepted: someone who can sign in today) whose role
 * holds both administration keys. Counted per role, so the rule on keys stays core's `administers`.
 */
export async function countAdministrators(db: Database, organizationId: number): Promise<number> {
  const perRole = await db
    .select({ permissions: roles.permissions, people: count() })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(users.organizationId, organizationId),
        isNull(users.deletedAt),
        isNotNull(users.invitationAcceptedAt),
      ),
    )
    .groupBy(roles.id, roles.permissions);
  return perRole.filter((role) => administers(role.permissions)).reduce((sum, role) => sum + role.people, 0);
}

/**
 * The ids of the organization's roles whose every key the caller holds: the people with them are
 * within the caller's reach (their API keys may be listed and revoked by the caller).
 */
export async function rolesWithinReach(
  db: Database,
  caller: Pick<Principal, 'permissions' | 'organizationId'>,
): Promise<number[]> {
  const all = await db
    .select({ id: roles.id, permissions: roles.permissions })
    .from(roles)
    .where(eq(roles.organizationId, caller.organizationId));
  return all
    .filter((role) => keysBeyond(caller.permissions, role.permissions).length === 0)
    .map((role) => role.id);
}
