import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, signInAs, type TestOrganization } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { resourceTypeOf } from './audit-logs.service.ts';

describe('the audit log', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
  });
  afterAll(() => app.close());

  const entries = async (query = '') =>
    (await app.inject({ method: 'GET', url: `/api/v1/audit_logs${query}`, headers: admin })).json();

  it('records each successful write with who, how, what and when; not reads or failures', async () => {
    const team = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/teams',
        headers: admin,
        payload: { name: 'Audited', workspace_id: organization.workspaceId, badge_color: 'gray' },
      })
    ).json();
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}`,
      headers: admin,
      payload: { name: 'Audited team' },
    });
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}`,
      headers: admin,
      payload: { badge_color: 'nope' },
    });
    await app.inject({ method: 'GET', url: `/api/v1/teams/${team.id}`, headers: admin });
    const { key, id: apiKeyId } = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/api_keys',
        headers: admin,
        payload: { name: 'audit' },
      })
    ).json();
    await app.inject({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}`,
      headers: { authorization: `Bearer ${key}` },
    });

    const teamEntries = (await entries('?resource_type=teams')).results;
    expect(teamEntries).toEqual([
      expect.objectContaining({
        action: 'delete',
        resource_id: String(team.id),
        method: 'DELETE',
        auth_method: 'api_key',
        api_key_id: apiKeyId,
        status_code: 204,
      }),
      expect.objectContaining({
        action: 'update',
        resource_id: String(team.id),
        path: `/api/v1/teams/${team.id}`,
        auth_method: 'session',
        status_code: 200,
      }),
      expect.objectContaining({
        action: 'create',
        resource_id: String(team.id),
        auth_method: 'session',
        user: expect.objectContaining({ id: organization.admin.id }),
      }),
    ]);
    expect(teamEntries[0].request_id).toBeTruthy();
  });

  it('records sign-ins as the user who signed in', async () => {
    const sessionEntries = (await entries('?resource_type=session')).results;
    expect(sessionEntries[0]).toMatchObject({
      action: 'create',
      user: { id: organization.admin.id },
      auth_method: 'session',
    });
  });

  it('filters by user and date range, and keeps organizations apart', async () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await entries(`?from=${encodeURIComponent(future)}`)).results).toEqual([]);
    expect((await entries(`?user_id=${organization.admin.id}`)).pagination.total).toBeGreaterThan(0);

    const other = await createTestOrganization(app);
    const otherEntries = await app.inject({
      method: 'GET',
      url: '/api/v1/audit_logs',
      headers: await signInAs(app, other.admin),
    });
    expect(
      otherEntries
        .json()
        .results.every((entry: { user: { id: number } }) => entry.user.id === other.admin.id),
    ).toBe(true);
  });
});

describe('resourceTypeOf', () => {
  it.each([
    ['/api/v1/teams', 'teams'],
    ['/api/v1/teams/:team_id/users/:user_id', 'teams.users'],
    ['/api/v1/workspaces/:workspace_id/users', 'workspaces.users'],
    ['/api/v1/workspaces/:workspace_id/projects/:id', 'workspaces.projects'],
    ['/api/v1/me/two_factor/confirm', 'me.two_factor.confirm'],
  ])('names %s as %s', (url, type) => {
    expect(resourceTypeOf(url)).toBe(type);
  });
});
