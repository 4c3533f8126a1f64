import { builtInRoleGrants, type PermissionKey } from '@letterset/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, roles, users } from '../db/schema.ts';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  type TestOrganization,
  type TestUser,
} from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { countAdministrators } from './grants.ts';

/**
 * The escalations people could make before the grant rule, each answered now with the safe answer.
 * Callers use API keys: a key acts as its owner, with the owner's current role.
 */
describe('grants are bounded by the granter', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
  });
  afterAll(() => app.close());

  let roleCount = 0;
  async function customRole(keys: readonly PermissionKey[]): Promise<number> {
    roleCount += 1;
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/roles',
      headers: admin,
      payload: { name: `Custom ${roleCount}`, role_permissions: keys },
    });
    expect(response.statusCode).toBe(200);
    return response.json().id;
  }

  async function personWith(keys: readonly PermissionKey[]) {
    const roleId = await customRole(keys);
    const user = await createTestUser(app, organization, { roleId });
    return { user, roleId, headers: await apiKeyHeadersFor(app, organization, user) };
  }

  async function keysOf(user: TestUser): Promise<string[]> {
    const [row] = await app.services.database.db
      .select({ permissions: roles.permissions })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(eq(users.id, user.id));
    return row?.permissions ?? [];
  }

  it('refuses a person managing people who gives themselves the Admin role', async () => {
    const manager = await personWith(['update_users']);
    const response = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${manager.user.id}`,
      headers: manager.headers,
      payload: { role_id: organization.roleIds.Admin },
    });
    expect(response.statusCode).toBe(403);
    const body = response.json();
    expect(body.code).toBe('grant_beyond_own_keys');
    expect(body.message).toMatch(/^You cannot give the role “Admin”: it grants keys you do not hold \(/);
    // Every key of Admin but update_users, by name.
    expect(body.message).toContain('update_roles');
    expect(body.message).toContain('manage_api_keys');
    expect(body.message).not.toMatch(/[(,] update_users[,)]/);
    expect(await keysOf(manager.user)).toEqual(['update_users']);
    const me = await app.inject({ method: 'GET', url: '/api/v1/me', headers: manager.headers });
    expect(me.json().permissions).toEqual(['update_users']);
  });

  it('lets a person managing people give only roles within their own keys', async () => {
    const manager = await personWith(['update_users', 'email_commenting', 'create_emails']);
    const viewer = await createTestUser(app, organization, { role: 'Viewer' });
    const toEditor = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${viewer.id}`,
      headers: manager.headers,
      payload: { role_id: organization.roleIds.Editor },
    });
    expect(toEditor.statusCode).toBe(403);
    expect(toEditor.json().message).toContain('update_emails');

    const narrower = await customRole(['email_commenting', 'create_emails']);
    const allowed = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${viewer.id}`,
      headers: manager.headers,
      payload: { role_id: narrower },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().role_id).toBe(narrower);
  });

  it('refuses a person managing roles who adds keys they lack to their own role', async () => {
    const roleManager = await personWith(['update_roles']);
    const response = await app.inject({
      method: 'PATCH',
      url: `/api/v1/roles/${roleManager.roleId}`,
      headers: roleManager.headers,
      payload: { role_permissions: ['update_roles', 'manage_api_keys', 'update_organization'] },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: `You cannot give the role “Custom ${roleCount}” these keys: it grants keys you do not hold (update_organization, manage_api_keys)`,
      code: 'grant_beyond_own_keys',
    });
    expect(await keysOf(roleManager.user)).toEqual(['update_roles']);
  });

  it('refuses a person managing roles who edits or deletes a role holding keys they lack', async () => {
    const roleManager = await personWith(['update_roles', 'delete_roles', 'email_commenting']);
    const wider = await customRole(['email_commenting', 'view_audit_logs']);
    const rename = await app.inject({
      method: 'PATCH',
      url: `/api/v1/roles/${wider}`,
      headers: roleManager.headers,
      payload: { role_permissions: ['email_commenting'] },
    });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe(
      `You cannot change the role “Custom ${roleCount}”: it holds keys you do not hold (view_audit_logs)`,
    );
    const remove = await app.inject({
      method: 'DELETE',
      url: `/api/v1/roles/${wider}`,
      headers: roleManager.headers,
    });
    expect(remove.statusCode).toBe(403);
    expect(remove.json().code).toBe('grant_beyond_own_keys');

    const within = await customRole(['email_commenting']);
    const edited = await app.inject({
      method: 'PATCH',
      url: `/api/v1/roles/${within}`,
      headers: roleManager.headers,
      payload: { name: 'Commenters', role_permissions: [] },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Commenters', role_permissions: [] });
  });

  it('refuses a person inviting people who invites with the Admin role', async () => {
    const inviter = await personWith(['create_users', 'email_commenting']);
    const invite = (roleId: number, email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/users',
        headers: inviter.headers,
        payload: { first_name: 'Mallory', last_name: 'Example', email, role_id: roleId },
      });
    const asAdmin = await invite(organization.roleIds.Admin, 'mallory@example.com');
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toMatch(
      /^You cannot give the role “Admin”: it grants keys you do not hold/,
    );
    const invited = await app.services.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'mallory@example.com'));
    expect(invited).toEqual([]);

    const asViewer = await invite(organization.roleIds.Viewer, 'valerie@example.com');
    expect(asViewer.statusCode).toBe(200);
    expect(asViewer.json().role_id).toBe(organization.roleIds.Viewer);
  });

  it('refuses a person creating roles who creates one with keys they lack', async () => {
    const creator = await personWith(['create_roles', 'create_emails']);
    const create = (keys: string[]) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/roles',
        headers: creator.headers,
        payload: { name: `Made by a creator ${keys.length}`, role_permissions: keys },
      });
    const foreign = await create(['create_emails', 'manage_billing', 'update_users']);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({
      message:
        'You cannot create a role with these keys: it grants keys you do not hold (manage_billing, update_users)',
      code: 'grant_beyond_own_keys',
    });
    const own = await create(['create_emails']);
    expect(own.statusCode).toBe(200);
    expect(own.json().role_permissions).toEqual(['create_emails']);
  });

  it('refuses a narrow manager who demotes or removes the Admin', async () => {
    const manager = await personWith(['update_users', 'delete_users', 'email_commenting']);
    const demote = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${organization.admin.id}`,
      headers: manager.headers,
      payload: { role_id: organization.roleIds.Viewer },
    });
    expect(demote.statusCode).toBe(403);
    expect(demote.json().message).toMatch(
      /^You cannot change the role of Ada Admin: it holds keys you do not hold/,
    );
    const remove = await app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${organization.admin.id}`,
      headers: manager.headers,
    });
    expect(remove.statusCode).toBe(403);
    expect(remove.json().message).toMatch(/^You cannot remove Ada Admin: it holds keys you do not hold/);
    expect(await keysOf(organization.admin)).toEqual([...builtInRoleGrants.Admin]);
  });
});

describe('the organization keeps someone who can manage users and roles', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
  });
  afterAll(() => app.close());

  it('refuses the only Admin who demotes themselves, and allows it once someone else holds both keys', async () => {
    const demoteSelf = () =>
      app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${organization.admin.id}`,
        headers: admin,
        payload: { role_id: organization.roleIds.Viewer },
      });
    const refused = await demoteSelf();
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: 'Failed to save',
      code: 'last_administrator',
      errors: {
        role_id: [
          'cannot change: nobody else active would hold both update_roles and update_users; give both to someone else first',
        ],
      },
    });
    expect(await countAdministrators(app.services.database.db, organization.organizationId)).toBe(1);

    // A pending invitation does not count: nobody can use it yet.
    const invited = await app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: {
        first_name: 'Ian',
        last_name: 'Invited',
        email: 'ian@example.com',
        role_id: organization.roleIds.Admin,
      },
    });
    expect(invited.statusCode).toBe(200);
    expect((await demoteSelf()).statusCode).toBe(422);

    const keeper = await createTestUser(app, organization, { role: 'Admin' });
    const allowed = await demoteSelf();
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().role_id).toBe(organization.roleIds.Viewer);

    // Now the keeper is the last one: nobody may remove them, not even themselves via a custom role edit.
    const keeperHeaders = await apiKeyHeadersFor(app, organization, keeper);
    const soleRole = await app.inject({
      method: 'POST',
      url: '/api/v1/roles',
      headers: keeperHeaders,
      payload: { name: 'Keepers', role_permissions: ['update_roles', 'update_users', 'delete_users'] },
    });
    const moved = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${keeper.id}`,
      headers: keeperHeaders,
      payload: { role_id: soleRole.json().id },
    });
    expect(moved.statusCode).toBe(200);
    const dropKeys = await app.inject({
      method: 'PATCH',
      url: `/api/v1/roles/${soleRole.json().id}`,
      headers: keeperHeaders,
      payload: { role_permissions: ['update_users', 'delete_users'] },
    });
    expect(dropKeys.statusCode).toBe(422);
    expect(dropKeys.json()).toMatchObject({
      code: 'last_administrator',
      errors: { role_permissions: [expect.stringContaining('nobody else active would hold both')] },
    });
    expect(await countAdministrators(app.services.database.db, organization.organizationId)).toBe(1);
  });

  it('refuses removing the last holder of both keys (422), whoever asks', async () => {
    const other = await createTestOrganization(app);
    const deputy = await createTestUser(app, other, { role: 'Admin' });
    const deputyHeaders = await apiKeyHeadersFor(app, other, deputy);
    const removeFirst = await app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${other.admin.id}`,
      headers: deputyHeaders,
    });
    expect(removeFirst.statusCode).toBe(204);
    const firstAdminsKeys = await app.services.database.db
      .select({ revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.userId, other.admin.id));
    expect(firstAdminsKeys.every((key) => key.revokedAt !== null)).toBe(true);

    // The deputy is now the last. Whoever may remove them holds every key they hold, so is
    // counted too, unless that person's own invitation is not accepted: only then does the
    // check stand alone. Such a caller is made here through the database.
    const third = await createTestUser(app, other, { role: 'Admin' });
    const thirdHeaders = await apiKeyHeadersFor(app, other, third);
    await app.services.database.db
      .update(users)
      .set({ invitationAcceptedAt: null })
      .where(eq(users.id, third.id));
    const removeLast = await app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${deputy.id}`,
      headers: thirdHeaders,
    });
    expect(removeLast.statusCode).toBe(422);
    expect(removeLast.json()).toEqual({
      message: 'Failed to save',
      code: 'last_administrator',
      errors: {
        base: [
          'This is the last active person holding update_roles and update_users; give both to someone else first',
        ],
      },
    });
  });
});
