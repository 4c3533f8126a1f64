import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { sessionCookieName } from '../../http/openapi.ts';
import { buildTestApp } from '../../test/harness.ts';

describe('first-run setup', () => {
  let app: App;
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
    expect(again.json()).toEqual({ message: 'Letterset is already set up; sign in instead' });
  });
});
