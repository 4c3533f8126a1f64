import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('teams', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
  });
  afterAll(() => app.close());

  const createTeam = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/v1/teams', headers: admin, payload });

  it('creates, lists by workspace, updates and deletes a team', async () => {
    const created = await createTeam({
      name: 'Retention',
      workspace_id: organization.workspaceId,
      badge_color: 'purple',
    });
    expect(created.statusCode).toBe(200);
    const team = created.json();
    expect(team).toMatchObject({
      name: 'Retention',
      badge_color: 'purple',
      workspace_id: organization.workspaceId,
    });

    const listed = await app.inject({
      method: 'GET',
      url: `/api/v1/teams?workspace_id=${organization.workspaceId}`,
      headers: admin,
    });
    expect(listed.json().results.map((item: { id: number }) => item.id)).toContain(team.id);

    const updated = await app.inject({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}`,
      headers: admin,
      payload: { badge_color: 'lime' },
    });
    expect(updated.json().badge_color).toBe('lime');
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/v1/teams/${team.id}`, headers: admin })).statusCode,
    ).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/teams/${team.id}`, headers: admin })).statusCode,
    ).toBe(404);
  });

  it('accepts only the 15 badge colours and an existing workspace', async () => {
    const response = await createTeam({ name: 'Ops', workspace_id: 999_999, badge_color: 'magenta' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.badge_color[0]).toMatch(/^must be one of: white, black, gray, red/);
    const unknownWorkspace = await createTeam({ name: 'Ops', workspace_id: 999_999, badge_color: 'red' });
    expect(unknownWorkspace.json().errors).toEqual({ workspace_id: ['does not exist'] });
  });

  it('lists members with their organization membership; members must be in the team’s workspace', async () => {
    const team = (
      await createTeam({ name: 'Newsletters', workspace_id: organization.workspaceId, badge_color: 'cyan' })
    ).json();
    const member = await createTestUser(app, organization, { role: 'Editor' });
    const outsider = await createTestUser(app, organization, { workspaceIds: [] });

    const added = await app.inject({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/users`,
      headers: admin,
      payload: { user_id: member.id },
    });
    expect(added.statusCode).toBe(200);
    const refused = await app.inject({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/users`,
      headers: admin,
      payload: { user_id: outsider.id },
    });
    expect(refused.json().errors).toEqual({ user_id: ['must first be a member of the team’s workspace'] });

    const members = (
      await app.inject({ method: 'GET', url: `/api/v1/teams/${team.id}/users`, headers: admin })
    ).json();
    expect(members.results).toEqual([
      expect.objectContaining({
        id: member.id,
        organization_membership: {
          role_id: organization.roleIds.Editor,
          invitation_sent_at: null,
          invitation_accepted_at: expect.any(String),
        },
      }),
    ]);
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `/api/v1/teams/${team.id}/users/${member.id}`,
          headers: admin,
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `/api/v1/teams/${team.id}/users/${member.id}`,
          headers: admin,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('hides the teams of workspaces you cannot enter', async () => {
    const hidden = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'Hidden', auto_join: false },
      })
    ).json();
    const team = (
      await createTeam({ name: 'Hidden team', workspace_id: hidden.id, badge_color: 'black' })
    ).json();
    const viewer = await signInAs(app, await createTestUser(app, organization, { role: 'Viewer' }));
    const list = await app.inject({ method: 'GET', url: '/api/v1/teams?per=100', headers: viewer });
    expect(list.json().results.map((item: { id: number }) => item.id)).not.toContain(team.id);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/teams/${team.id}`, headers: viewer })).statusCode,
    ).toBe(403);
  });
});
