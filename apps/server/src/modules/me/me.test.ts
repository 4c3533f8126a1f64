import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;

describe('GET /me', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Headers;

  const me = async (headers: Headers) => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/me', headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const call = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
    const response = await app.inject({ method, url, headers: admin, payload });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
  });
  afterAll(() => app?.close());

  it('lists the workspaces one is a member of, or all of them with access_all_workspaces, by name', async () => {
    const zulu = await call('POST', '/api/v1/workspaces', { name: 'Zulu', auto_join: false });
    const alpha = await call('POST', '/api/v1/workspaces', { name: 'Alpha', auto_join: false });
    const viewer = await createTestUser(app, organization, { role: 'Viewer', workspaceIds: [zulu.id] });
    const viewerKey = await apiKeyHeadersFor(app, organization, viewer);

    const viewerMe = await me(viewerKey);
    expect(viewerMe.workspaces.map((workspace: { name: string }) => workspace.name)).toEqual(['Zulu']);
    expect(viewerMe.user).toMatchObject({ id: viewer.id, role_name: 'Viewer', workspace_ids: [zulu.id] });
    expect(viewerMe.role).toMatchObject({ id: organization.roleIds.Viewer, name: 'Viewer' });
    expect(viewerMe.organization.id).toBe(organization.organizationId);
    expect(viewerMe.permissions).not.toContain('access_all_workspaces');

    const adminMe = await me(admin);
    expect(adminMe.permissions).toContain('access_all_workspaces');
    expect(adminMe.workspaces.map((workspace: { id: number }) => workspace.id)).toEqual(
      expect.arrayContaining([alpha.id, zulu.id, organization.workspaceId]),
    );
    const names = adminMe.workspaces.map((workspace: { name: string }) => workspace.name);
    expect(names).toEqual([...names].sort());
  });

  it('shows at once what the organization changed since it was last answered', async () => {
    const workspace = await call('POST', '/api/v1/workspaces', { name: 'Before', auto_join: false });
    const other = await call('POST', '/api/v1/workspaces', { name: 'Other', auto_join: false });
    const person = await createTestUser(app, organization, { role: 'Viewer', workspaceIds: [workspace.id] });
    const key = await apiKeyHeadersFor(app, organization, person);
    expect((await me(key)).workspaces.map((entry: { name: string }) => entry.name)).toEqual(['Before']);

    await call('PATCH', `/api/v1/workspaces/${workspace.id}`, { name: 'After' });
    await call('POST', `/api/v1/workspaces/${other.id}/users`, { user_id: person.id });
    expect((await me(key)).workspaces.map((entry: { name: string }) => entry.name)).toEqual([
      'After',
      'Other',
    ]);

    await call('PATCH', `/api/v1/users/${person.id}`, { role_id: organization.roleIds.Editor });
    const renamed = await app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: key,
      payload: { first_name: 'Renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = await me(key);
    expect(after.role.name).toBe('Editor');
    expect(after.user).toMatchObject({ role_name: 'Editor', first_name: 'Renamed' });
    expect(after.permissions).toContain('create_emails');
  });
});
