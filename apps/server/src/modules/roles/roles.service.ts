import type { PermissionKey } from '@letterset/core';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import { roles, users } from '../../db/schema.ts';
import type { Principal } from '../../http/access.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
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

export async function listRoles(app: App, principal: Principal, page: PageRequest) {
  const where = eq(roles.organizationId, principal.organizationId);
  const [rows, [total]] = await Promise.all([
    // Built-in roles first, in their order of increasing power, then custom roles by name.
    app.database.db
      .select()
      .from(roles)
      .where(where)
      .orderBy(sql`${roles.builtin} desc`, asc(roles.id))
      .limit(page.limit)
      .offset(page.offset),
    app.database.db.select({ value: count() }).from(roles).where(where),
  ]);
  return listBody(rows.map(toRoleResponse), total?.value ?? 0, page);
}

async function findRole(app: App, principal: Principal, id: number): Promise<RoleRow> {
  const [row] = await app.database.db
    .select()
    .from(roles)
    .where(and(eq(roles.id, id), eq(roles.organizationId, principal.organizationId)));
  if (!row) throw new NotFoundError();
  return row;
}

export async function getRole(app: App, principal: Principal, id: number) {
  return toRoleResponse(await findRole(app, principal, id));
}

async function assertNameFree(app: App, principal: Principal, name: string, exceptId?: number) {
  const [clash] = await app.database.db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(eq(roles.organizationId, principal.organizationId), sql`lower(${roles.name}) = lower(${name})`),
    );
  if (clash && clash.id !== exceptId) throw ValidationError.field('name', 'is already taken');
}

export async function createRole(app: App, principal: Principal, input: Static<typeof CreateRoleBody>) {
  await assertNameFree(app, principal, input.name);
  const [row] = await app.database.db
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

export async function updateRole(
  app: App,
  principal: Principal,
  id: number,
  input: Static<typeof UpdateRoleBody>,
) {
  const role = await findRole(app, principal, id);
  assertEditable(role);
  if (input.name !== undefined) await assertNameFree(app, principal, input.name, id);
  const [row] = await app.database.db
    .update(roles)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.role_permissions !== undefined ? { permissions: input.role_permissions } : {}),
    })
    .where(eq(roles.id, id))
    .returning();
  if (!row) throw new NotFoundError();
  return toRoleResponse(row);
}

export async function deleteRole(app: App, principal: Principal, id: number): Promise<void> {
  const role = await findRole(app, principal, id);
  assertEditable(role);
  // Removed users keep their role for the record, so they count too: the row must stay valid.
  const [holders] = await app.database.db.select({ value: count() }).from(users).where(eq(users.roleId, id));
  const held = holders?.value ?? 0;
  if (held > 0) {
    throw ValidationError.field(
      'base',
      `${role.name} is assigned to ${held} user${held === 1 ? '' : 's'}; give them another role first`,
    );
  }
  await app.database.db.delete(roles).where(eq(roles.id, id));
}
