import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('workspaces', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
  });
  afterAll(() => app.close());

  it('creates (201, creator as member), reads, updates and deletes a workspace', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: admin,
      payload: { name: 'EMEA', auto_join: false },
    });
    expect(created.statusCode).toBe(201);
    const workspace = created.json();
    expect(workspace).toMatchObject({ name: 'EMEA', auto_join: false });
    expect(workspace.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const members = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${workspace.id}/users`,
      headers: admin,
    });
    expect(members.json().results.map((user: { id: number }) => user.id)).toEqual([organization.admin.id]);

    const updated = await app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${workspace.id}`,
      headers: admin,
      payload: { auto_join: true },
    });
    expect(updated.json()).toMatchObject({ name: 'EMEA', auto_join: true });

    expect(
      (await app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${workspace.id}`, headers: admin }))
        .statusCode,
    ).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/workspaces/${workspace.id}`, headers: admin }))
        .statusCode,
    ).toBe(404);
  });

  it('requires name and auto_join', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: admin,
      payload: { name: '' },
    });
    expect(response.json().errors).toEqual({ name: ["can't be blank"], auto_join: ['is required'] });
  });

  it('shows members only their workspaces; access_all_workspaces shows all', async () => {
    const hidden = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'Secret', auto_join: false },
      })
    ).json();
    const editor = await createTestUser(app, organization, { role: 'Editor' });
    const editorSession = await signInAs(app, editor);
    const list = await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: editorSession });
    expect(list.json().results.map((workspace: { id: number }) => workspace.id)).toEqual([
      organization.workspaceId,
    ]);
    const forbidden = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${hidden.id}`,
      headers: editorSession,
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({
      code: 'permission_denied',
      message: 'You are not a member of this workspace',
    });
    const scoped = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${hidden.id}/users`,
      headers: editorSession,
    });
    expect(scoped.statusCode).toBe(403);

    const adminList = await app.inject({ method: 'GET', url: '/api/v1/workspaces?per=100', headers: admin });
    expect(adminList.json().results.map((workspace: { id: number }) => workspace.id)).toContain(hidden.id);
  });

  it('adds and removes members; removal also leaves the workspace’s teams', async () => {
    const workspace = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'APAC', auto_join: false },
      })
    ).json();
    const user = await createTestUser(app, organization, { workspaceIds: [] });
    const added = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${workspace.id}/users`,
      headers: admin,
      payload: { user_id: user.id },
    });
    expect(added.json().workspace_ids).toEqual([workspace.id]);
    const team = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/teams',
        headers: admin,
        payload: { name: 'APAC promos', workspace_id: workspace.id, badge_color: 'red' },
      })
    ).json();
    await app.inject({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/users`,
      headers: admin,
      payload: { user_id: user.id },
    });

    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${workspace.id}/users/${user.id}`,
      headers: admin,
    });
    expect(removed.statusCode).toBe(204);
    const after = (
      await app.inject({ method: 'GET', url: `/api/v1/users/${user.id}`, headers: admin })
    ).json();
    expect(after).toMatchObject({ workspace_ids: [], team_ids: [] });
    const unknownUser = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${workspace.id}/users`,
      headers: admin,
      payload: { user_id: 999_999 },
    });
    expect(unknownUser.json().errors).toEqual({ user_id: ['does not exist'] });
  });

  it('refuses to delete a workspace that has teams, or the last one', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/v1/teams',
      headers: admin,
      payload: { name: 'Core', workspace_id: organization.workspaceId, badge_color: 'blue' },
    });
    const withTeams = await app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${organization.workspaceId}`,
      headers: admin,
    });
    expect(withTeams.statusCode).toBe(422);
    expect(withTeams.json().errors.base[0]).toMatch(/still has \d+ team\(s\)/);

    const lonely = await createTestOrganization(app);
    const last = await app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${lonely.workspaceId}`,
      headers: await signInAs(app, lonely.admin),
    });
    expect(last.json().errors).toEqual({ base: ['An organization needs at least one workspace'] });
  });
});
