import { builtInRoleGrants } from '@letterset/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('roles', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
  });
  afterAll(() => app.close());

  it('lists the four built-in roles first, with their grants', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/roles', headers: admin });
    const roles = response.json().results as { name: string; builtin: boolean; role_permissions: string[] }[];
    expect(roles.slice(0, 4).map((role) => role.name)).toEqual(['Viewer', 'Editor', 'Developer', 'Admin']);
    for (const role of roles.slice(0, 4)) {
      expect(role.builtin).toBe(true);
      expect(new Set(role.role_permissions)).toEqual(
        new Set(builtInRoleGrants[role.name as keyof typeof builtInRoleGrants]),
      );
    }
  });

  it.each([
    ['Viewer', ['email_commenting'], 'create_emails'],
    ['Editor', ['create_emails', 'send_test_emails', 'create_projects'], 'create_email_design_systems'],
    ['Developer', ['create_email_design_systems', 'manage_api_keys'], 'view_audit_logs'],
  ] as const)('gives a %s exactly its grants', async (role, has, lacks) => {
    const user = await createTestUser(app, organization, { role });
    const me = (
      await app.inject({ method: 'GET', url: '/api/v1/me', headers: await signInAs(app, user) })
    ).json();
    expect(me.permissions).toEqual(expect.arrayContaining([...has]));
    expect(me.permissions).not.toContain(lacks);
  });

  it('creates a custom role from known keys only', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/roles',
      headers: admin,
      payload: { name: 'Translators', role_permissions: ['update_emails', 'add_remove_locales_from_emails'] },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      name: 'Translators',
      builtin: false,
      role_permissions: ['update_emails', 'add_remove_locales_from_emails'],
    });

    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/roles',
      headers: admin,
      payload: { name: 'Rogue', role_permissions: ['update_emails', 'launch_rockets'] },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ 'role_permissions.1': ['is not one of the allowed values'] });

    const duplicate = await app.inject({
      method: 'POST',
      url: '/api/v1/roles',
      headers: admin,
      payload: { name: 'translators', role_permissions: [] },
    });
    expect(duplicate.json().errors).toEqual({ name: ['is already taken'] });
  });

  it('applies a changed role to its users at their next request', async () => {
    const role = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/roles',
        headers: admin,
        payload: { name: 'Auditors', role_permissions: [] },
      })
    ).json();
    const user = await createTestUser(app, organization, { roleId: role.id });
    const headers = await signInAs(app, user);
    expect((await app.inject({ method: 'GET', url: '/api/v1/audit_logs', headers })).statusCode).toBe(403);
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/roles/${role.id}`,
      headers: admin,
      payload: { role_permissions: ['view_audit_logs'] },
    });
    expect((await app.inject({ method: 'GET', url: '/api/v1/audit_logs', headers })).statusCode).toBe(200);
  });

  it('neither edits nor deletes built-in roles', async () => {
    const viewerId = organization.roleIds.Viewer;
    const edit = await app.inject({
      method: 'PATCH',
      url: `/api/v1/roles/${viewerId}`,
      headers: admin,
      payload: { name: 'Lookers' },
    });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().errors).toEqual({ base: ['Viewer is a built-in role and cannot be changed'] });
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/v1/roles/${viewerId}`, headers: admin })).statusCode,
    ).toBe(422);
  });

  it('deletes a custom role only when nobody holds it', async () => {
    const role = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/roles',
        headers: admin,
        payload: { name: 'Interns', role_permissions: [] },
      })
    ).json();
    const user = await createTestUser(app, organization, { roleId: role.id });
    const inUse = await app.inject({ method: 'DELETE', url: `/api/v1/roles/${role.id}`, headers: admin });
    expect(inUse.statusCode).toBe(422);
    expect(inUse.json().errors).toEqual({
      base: ['Interns is assigned to 1 user; give them another role first'],
    });
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${user.id}`,
      headers: admin,
      payload: { role_id: organization.roleIds.Viewer },
    });
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/v1/roles/${role.id}`, headers: admin })).statusCode,
    ).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/roles/${role.id}`, headers: admin })).statusCode,
    ).toBe(404);
  });

  it('applies a changed role to the very next request of someone already signed in', async () => {
    const role = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/roles',
        headers: admin,
        payload: { name: 'Record keepers', role_permissions: ['view_audit_logs'] },
      })
    ).json();
    const keeper = await signInAs(app, await createTestUser(app, organization, { roleId: role.id }));
    const readAuditLog = () => app.inject({ method: 'GET', url: '/api/v1/audit_logs', headers: keeper });
    expect((await readAuditLog()).statusCode).toBe(200);
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/roles/${role.id}`,
      headers: admin,
      payload: { role_permissions: [] },
    });
    expect((await readAuditLog()).statusCode).toBe(403);
  });
});
