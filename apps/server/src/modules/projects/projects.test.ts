import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('projects', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;
  let marketing: number;
  let lifecycle: number;

  const request = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers = admin,
    payload?: object,
  ) => app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    const team = async (name: string) =>
      (
        await request('POST', '/api/v1/teams', admin, {
          name,
          workspace_id: organization.workspaceId,
          badge_color: 'teal',
        })
      ).json().id as number;
    marketing = await team('Marketing');
    lifecycle = await team('Lifecycle');
  });
  afterAll(() => app.close());

  it('creates a project with its team embedded, lists, filters, searches, updates and deletes it', async () => {
    const created = await request('POST', `${base}/projects`, admin, {
      name: 'Black Friday 2026',
      description: 'Deals week',
      team_id: marketing,
    });
    expect(created.statusCode).toBe(200);
    const project = created.json();
    expect(project).toMatchObject({
      name: 'Black Friday 2026',
      description: 'Deals week',
      organization_id: organization.organizationId,
      team_id: marketing,
      team: { id: marketing, name: 'Marketing', badge_color: 'teal', workspace_id: organization.workspaceId },
    });
    await request('POST', `${base}/projects`, admin, { name: 'Onboarding sequence', team_id: lifecycle });

    const all = (await request('GET', `${base}/projects`)).json();
    expect(all.results.map((item: { name: string }) => item.name)).toEqual([
      'Black Friday 2026',
      'Onboarding sequence',
    ]);
    expect(all.pagination).toEqual({ per: 10, page: 1, total: 2 });
    const byTeam = (await request('GET', `${base}/projects?team_id=${lifecycle}`)).json();
    expect(byTeam.results.map((item: { name: string }) => item.name)).toEqual(['Onboarding sequence']);
    const searched = (await request('GET', `${base}/projects?search=friday`)).json();
    expect(searched.results.map((item: { name: string }) => item.name)).toEqual(['Black Friday 2026']);
    expect((await request('GET', `${base}/projects?search=100%25`)).json().results).toEqual([]);

    const patched = await request('PATCH', `${base}/projects/${project.id}`, admin, {
      name: 'Black Friday',
      description: null,
      team_id: lifecycle,
    });
    expect(patched.json()).toMatchObject({
      name: 'Black Friday',
      description: null,
      team: { name: 'Lifecycle' },
    });

    expect((await request('DELETE', `${base}/projects/${project.id}`)).statusCode).toBe(204);
    expect((await request('GET', `${base}/projects/${project.id}`)).statusCode).toBe(404);
  });

  it('refuses a team of another workspace, a missing name and unknown fields with 422', async () => {
    const otherWorkspace = (
      await request('POST', '/api/v1/workspaces', admin, { name: 'Elsewhere', auto_join: false })
    ).json();
    const foreignTeam = (
      await request('POST', '/api/v1/teams', admin, {
        name: 'Foreign',
        workspace_id: otherWorkspace.id,
        badge_color: 'red',
      })
    ).json();
    const wrongTeam = await request('POST', `${base}/projects`, admin, {
      name: 'X',
      team_id: foreignTeam.id,
    });
    expect(wrongTeam.statusCode).toBe(422);
    expect(wrongTeam.json().errors).toEqual({ team_id: ['is not a team of this workspace'] });
    const invalid = await request('POST', `${base}/projects`, admin, { team_id: marketing, colour: 'red' });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['colour', 'name']);
  });

  it('shows a project only to its team’s members, unless they hold access_all_projects', async () => {
    const project = (
      await request('POST', `${base}/projects`, admin, { name: 'Team only', team_id: marketing })
    ).json();
    const outsider = await signInAs(app, await createTestUser(app, organization, { role: 'Editor' }));
    const memberUser = await createTestUser(app, organization, { role: 'Editor' });
    await request('POST', `/api/v1/teams/${marketing}/users`, admin, { user_id: memberUser.id });
    const member = await signInAs(app, memberUser);

    expect((await request('GET', `${base}/projects/${project.id}`, outsider)).statusCode).toBe(404);
    expect(
      (await request('PATCH', `${base}/projects/${project.id}`, outsider, { name: 'Mine' })).statusCode,
    ).toBe(404);
    const outsiderList = (await request('GET', `${base}/projects`, outsider)).json();
    expect(outsiderList.results.map((item: { id: number }) => item.id)).not.toContain(project.id);

    expect((await request('GET', `${base}/projects/${project.id}`, member)).statusCode).toBe(200);
    const memberList = (await request('GET', `${base}/projects`, member)).json();
    expect(memberList.results.map((item: { id: number }) => item.id)).toContain(project.id);

    // An editor cannot give a project to a team they are not in: it would vanish from their own view.
    const handOff = await request('POST', `${base}/projects`, outsider, { name: 'Lost', team_id: marketing });
    expect(handOff.statusCode).toBe(422);
    expect(handOff.json().errors.team_id).toEqual(['is a team you are not a member of']);
  });

  it('keeps a team that still owns projects', async () => {
    const team = (
      await request('POST', '/api/v1/teams', admin, {
        name: 'Short-lived',
        workspace_id: organization.workspaceId,
        badge_color: 'gray',
      })
    ).json();
    await request('POST', `${base}/projects`, admin, { name: 'Owned', team_id: team.id });
    const refused = await request('DELETE', `/api/v1/teams/${team.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.team[0]).toContain('“Owned”');
  });
});
