import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieName } from '../../http/openapi.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('first-run setup', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const setup = {
    organization_name: 'Acme',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@acme.example',
    password: 'a long enough password',
  };

  it('validates the form with a 422 per field', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/setup',
      payload: { ...setup, email: 'nope', password: 'short' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      email: ['must be a valid email'],
      password: ['must be at least 10 characters'],
    });
  });

  it('creates the organization, its workspace and its Admin on an empty server, then refuses', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({
      setup_required: true,
    });

    const response = await app.inject({ method: 'POST', url: '/api/v1/setup', payload: setup });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.some((cookie) => cookie.name === sessionCookieName)).toBe(true);
    expect(response.json()).toMatchObject({
      user: { first_name: 'Ada', email: 'ada@acme.example' },
      organization: { name: 'Acme' },
      role: { name: 'Admin' },
      workspaces: [{ name: 'Main workspace', auto_join: true }],
    });

    expect((await app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({
      setup_required: false,
    });
    const again = await app.inject({
      method: 'POST',
      url: '/api/v1/setup',
      payload: { ...setup, email: 'eve@evil.example' },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({
      code: 'permission_denied',
      message: 'Letterset is already set up; sign in instead',
    });
  });

  it('gives the organization a default team in its first workspace, with the Admin in it, so the first project can be made at once', async () => {
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { email: setup.email, password: setup.password },
    });
    const cookies = {
      [sessionCookieName]: signIn.cookies.find((cookie) => cookie.name === sessionCookieName)?.value ?? '',
    };
    const me = (await app.inject({ method: 'GET', url: '/api/v1/me', cookies })).json();
    const workspaceId = me.workspaces[0].id;
    const teams = await app.inject({
      method: 'GET',
      url: `/api/v1/teams?workspace_id=${workspaceId}`,
      cookies,
    });
    expect(teams.statusCode).toBe(200);
    expect(teams.json()).toMatchObject({
      results: [{ name: 'Acme', workspace_id: workspaceId, badge_color: 'blue' }],
      pagination: { total: 1 },
    });
    const team = teams.json().results[0];
    const members = await app.inject({ method: 'GET', url: `/api/v1/teams/${team.id}/users`, cookies });
    expect(members.json().results.map((member: { email: string }) => member.email)).toEqual([setup.email]);

    const project = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${workspaceId}/projects`,
      cookies,
      payload: { name: 'Spring newsletter', team_id: team.id },
    });
    expect(project.statusCode).toBe(200);
    expect(project.json()).toMatchObject({ name: 'Spring newsletter', team_id: team.id });
  });

  it('ships the starter design system with its pictures served by this server, not another host', async () => {
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { email: setup.email, password: setup.password },
    });
    const cookies = {
      [sessionCookieName]: signIn.cookies.find((cookie) => cookie.name === sessionCookieName)?.value ?? '',
    };
    const workspaceId = (await app.inject({ method: 'GET', url: '/api/v1/me', cookies })).json().workspaces[0]
      .id;
    const systems = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${workspaceId}/email_design_systems`,
      cookies,
    });
    const starter = systems
      .json()
      .results.find((system: { name: string }) => system.name === 'Letterset Starter');
    const components = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${workspaceId}/email_design_systems/${starter.id}/components?per=100`,
      cookies,
    });
    const text = components.body;
    expect(text).not.toContain('placehold');
    const pictureUrls = [
      ...text.matchAll(/http:\/\/localhost:3000\/files\/starter-images\/[a-z-]+\.png/g),
    ].map(([url]) => url);
    expect(pictureUrls.length).toBeGreaterThanOrEqual(5);
    for (const url of new Set(pictureUrls)) {
      const picture = await app.inject({ method: 'GET', url: url.replace('http://localhost:3000', '') });
      expect(picture.statusCode, url).toBe(200);
      expect(picture.headers['content-type']).toBe('image/png');
      expect(picture.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    }
  });
});
