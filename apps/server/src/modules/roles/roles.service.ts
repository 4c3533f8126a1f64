import type { PermissionKey } from '@letterset/core';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { roles, users } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { assertMayActOn, assertMayGrant, changeAccess } from '../../http/grants.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import type { CreateRoleBody, Role, UpdateRoleBody } from './roles.schemas.ts';

type RoleRow = typeof roles.$inferSelect;

export function toRoleResponse(row: RoleRow): Static<typeof Role> {
  return {
    id: row.id,
    name: row.name,
    role_permissions: row.permissions as PermissionKey[],
    builtin: row.builtin,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function listRoles(
  services: Pick<Services, 'database'>,
  principal: Principal,
  page: PageRequest,
) {
  const where = eq(roles.organizationId, principal.organizationId);
  const [rows, [total]] = await Promise.all([
    // Built-in roles first, in their order of increasing power, then custom roles by name.
    services.database.db
      .select()
      .from(roles)
      .where(where)
      .orderBy(sql`${roles.builtin} desc`, asc(roles.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(roles).where(where),
  ]);
  return listBody(rows.map(toRoleResponse), total?.value ?? 0, page);
}

async function findRole(db: Database, principal: Principal, id: number): Promise<RoleRow> {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.id, id), eq(roles.organizationId, principal.organizationId)));
  if (!row) throw new NotFoundError();
  return row;
}

export async function getRole(services: Pick<Services, 'database'>, principal: Principal, id: number) {
  return toRoleResponse(await findRole(services.database.db, principal, id));
}

async function assertNameFree(db: Database, principal: Principal, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(eq(roles.organizationId, principal.organizationId), sql`lower(${roles.name}) = lower(${name})`),
    );
  if (clash && clash.id !== exceptId) throw ValidationError.field('name', 'is already taken');
}

/** A new role may hold only keys its creator holds (403 naming the others). */
export async function createRole(
  services: Pick<Services, 'database'>,
  principal: Principal,
  input: Static<typeof CreateRoleBody>,
) {
  assertMayGrant(principal, input.role_permissions, 'create a role with these keys');
  await assertNameFree(services.database.db, principal, input.name);
  const [row] = await services.database.db
    .insert(roles)
    .values({
      organizationId: principal.organizationId,
      name: input.name,
      permissions: input.role_permissions,
    })
    .returning();
  if (!row) throw new Error('role insert returned nothing');
  return toRoleResponse(row);
}

function assertEditable(role: RoleRow) {
  if (role.builtin)
    throw ValidationError.field('base', `${role.name} is a built-in role and cannot be changed`);
}

/**
 * Renames a custom role or replaces its keys. The caller must hold every key the role has and
 * every key it is given (403), and the organization must keep someone holding both
 * update_roles and update_users (422).
 */
export async function updateRole(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
  input: Static<typeof UpdateRoleBody>,
) {
  const refusal = {
    field: 'role_permissions',
    message:
      'cannot take away update_roles or update_users: nobody else active would hold both; give both to someone else first',
  };
  const row = await changeAccess(services.database.db, principal.organizationId, refusal, async (tx) => {
    const role = await findRole(tx, principal, id);
    assertEditable(role);
    assertMayActOn(principal, role.permissions, `change the role “${role.name}”`);
    if (input.role_permissions !== undefined) {
      assertMayGrant(principal, input.role_permissions, `give the role “${role.name}” these keys`);
    }
    if (input.name !== undefined) await assertNameFree(tx, principal, input.name, id);
    if (input.name === undefined && input.role_permissions === undefined) return role;
    const [updated] = await tx
      .update(roles)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.role_permissions !== undefined ? { permissions: input.role_permissions } : {}),
      })
      .where(eq(roles.id, id))
      .returning();
    if (!updated) throw new NotFoundError();
    return updated;
  });
  return toRoleResponse(row);
}

/**
 * Deletes a custom role nobody holds. The caller must hold every key it has (403). A role still
 * held cannot be deleted, so this never takes keys away from anyone.
 */
export async function deleteRole(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
): Promise<void> {
  const db = services.database.db;
  const role = await findRole(db, principal, id);
  assertEditable(role);
  assertMayActOn(principal, role.permissions, `delete the role “${role.name}”`);
  // Removed users keep their role for the record, so they count too: the row must stay valid.
  const [holders] = await db.select({ value: count() }).from(users).where(eq(users.roleId, id));
  const held = holders?.value ?? 0;
  if (held > 0) {
    throw ValidationError.field(
      'base',
      `${role.name} is assigned to ${held} user${held === 1 ? '' : 's'}; give them another role first`,
    );
  }
  await db.delete(roles).where(eq(roles.id, id));
}
