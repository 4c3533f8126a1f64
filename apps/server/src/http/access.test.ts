import { permissionKeys } from '@letterset/core';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../test/factories.ts';
import { buildTestApp, type TestApp, testConfig } from '../test/harness.ts';
import { createRecordFixture, fillPath, type RecordFixture } from '../test/record-fixture.ts';
import { registerAccessControl } from './access.ts';

/**
 * Valid bodies for writes to a record, so that the cross-organization call reaches the record
 * lookup (and its 404) instead of stopping at schema validation. (Permission checks come before
 * validation, so the 403 calls need none.)
 */
function validBody(method: string, url: string, fixture: RecordFixture): object | undefined {
  const bodies: Record<string, object> = {
    'PATCH /api/v1/users/:id': { role_id: fixture.organization.roleIds.Viewer },
    'POST /api/v1/users/:id/invitation': {},
    'PATCH /api/v1/roles/:id': { name: 'Renamed' },
    'PATCH /api/v1/workspaces/:id': { name: 'Renamed' },
    'POST /api/v1/workspaces/:workspace_id/users': { user_id: fixture.userId },
    'PATCH /api/v1/teams/:id': { name: 'Renamed' },
    'POST /api/v1/teams/:team_id/users': { user_id: fixture.userId },
    'POST /api/v1/notifications/:id/mark_read': {},
    'PATCH /api/v1/review_groups/:id': { name: 'Renamed' },
    'PATCH /api/v1/mcp_apps/:id': { name: 'Renamed' },
  };
  const key = `${method} ${url}`;
  if (method === 'GET' || method === 'DELETE') return undefined;
  // Workspace access is checked before the body is read: another organization meets the 404 first.
  if (url.startsWith('/api/v1/workspaces/:workspace_id/')) return {};
  const body = bodies[key];
  if (!body) throw new Error(`No valid body for ${key}: add one to the access test`);
  return body;
}

describe('every route', () => {
  let app: TestApp;
  let home: RecordFixture;
  let outsider: TestOrganization;

  beforeAll(async () => {
    app = await buildTestApp();
    home = await createRecordFixture(app, await createTestOrganization(app, 'Home'));
    outsider = await createTestOrganization(app, 'Outsider');
  });
  afterAll(() => app.close());

  const apiRoutes = () => app.routePermissions.filter((route) => route.url.startsWith('/api/'));

  it('declares who may call it (the server refuses to start otherwise)', async () => {
    expect(apiRoutes().length).toBeGreaterThan(30);
    const bare = Fastify();
    registerAccessControl(bare, { database: app.services.database, config: testConfig() });
    expect(() => bare.get('/api/v1/undeclared', async () => 'no')).toThrow(
      "Route GET /api/v1/undeclared must declare config.permission (a permission key, 'signed_in' or 'public')",
    );
    await bare.close();
  });

  it('answers 401 to anonymous callers unless public', async () => {
    for (const route of apiRoutes().filter((candidate) => candidate.permission !== 'public')) {
      const response = await app.inject({ method: route.method as 'GET', url: fillPath(route.url, home) });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('answers 403 naming the key to a role that has every permission but that one', async () => {
    const keyed = apiRoutes().filter(
      (route) => route.permission !== 'public' && route.permission !== 'signed_in',
    );
    expect(keyed.length).toBeGreaterThan(15);
    const admin = await signInAs(app, home.organization.admin);
    for (const route of keyed) {
      const role = (
        await app.inject({
          method: 'POST',
          url: '/api/v1/roles',
          headers: admin,
          payload: {
            name: `All but ${route.method} ${route.url}`,
            role_permissions: permissionKeys.filter((key) => ![route.permission].flat().includes(key)),
          },
        })
      ).json();
      const user = await createTestUser(app, home.organization, { roleId: role.id });
      const response = await app.inject({
        method: route.method as 'GET',
        url: fillPath(route.url, home),
        headers: await apiKeyHeadersFor(app, home.organization, user),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      const keys = [route.permission].flat();
      const named = keys.length === 1 ? keys[0] : `${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}`;
      expect(response.json()).toEqual({
        code: 'permission_denied',
        message: `You need the ${named} permission to do this`,
      });
    }
  });

  it('answers 404 to an Admin of another organization for every record id', async () => {
    const foreignAdmin = await apiKeyHeadersFor(app, outsider, outsider.admin);
    const withIds = apiRoutes().filter((route) => route.permission !== 'public' && route.url.includes('/:'));
    expect(withIds.length).toBeGreaterThan(15);
    for (const route of withIds) {
      const response = await app.inject({
        method: route.method as 'GET',
        url: fillPath(route.url, home),
        headers: foreignAdmin,
        payload: validBody(route.method, route.url, home),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
    }
  });

  it('lists nothing of another organization', async () => {
    const foreignAdmin = await apiKeyHeadersFor(app, outsider, outsider.admin);
    for (const url of [
      '/api/v1/users',
      '/api/v1/roles',
      '/api/v1/workspaces',
      '/api/v1/teams',
      '/api/v1/api_keys',
      '/api/v1/audit_logs',
      '/api/v1/review_groups',
    ]) {
      const body = (await app.inject({ method: 'GET', url: `${url}?per=100`, headers: foreignAdmin })).json();
      const text = JSON.stringify(body.results);
      expect(text, url).not.toContain('Fixture');
      expect(text, url).not.toContain(home.organization.admin.email);
    }
  });
});
