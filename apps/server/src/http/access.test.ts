import { permissionKeys } from '@letterset/core';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../test/factories.ts';
import { buildTestApp, testConfig } from '../test/harness.ts';
import { solidImage } from '../test/images.ts';
import { registerAccessControl } from './access.ts';

/** Ids of one of each kind of record in an organization, to fill route parameters with. */
interface Fixture {
  organization: TestOrganization;
  teamId: number;
  roleId: number;
  userId: number;
  apiKeyId: number;
  imageId: string;
  designSystemId: number;
  componentId: number;
  brandProfileId: number;
  layoutId: number;
  projectId: number;
  emailId: number;
  dynamicContentProfileId: string;
  conditionalId: number;
  personalizationTagId: number;
  linkTrackingProfileId: number;
  feedId: number;
}

async function buildFixture(app: App, organization: TestOrganization): Promise<Fixture> {
  const admin = await signInAs(app, organization.admin);
  const post = async (url: string, payload: object) => {
    const response = await app.inject({ method: 'POST', url, headers: admin, payload });
    if (response.statusCode >= 300)
      throw new Error(`fixture POST ${url} failed: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const team = await post('/api/v1/teams', {
    name: 'Fixture team',
    workspace_id: organization.workspaceId,
    badge_color: 'blue',
  });
  const role = await post('/api/v1/roles', { name: 'Fixture role', role_permissions: [] });
  const user = await createTestUser(app, organization, { role: 'Editor' });
  await app.inject({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/users`,
    headers: admin,
    payload: { user_id: user.id },
  });
  const apiKey = await post('/api/v1/api_keys', { name: 'Fixture key' });
  const form = new FormData();
  form.append('name', 'Fixture image');
  form.append(
    'file',
    new Blob([new Uint8Array(await solidImage(8, 8).png().toBuffer())], { type: 'image/png' }),
    'fixture.png',
  );
  const image = (
    await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/images`,
      headers: admin,
      payload: form,
    })
  ).json();
  const designSystem = await post(`/api/v1/workspaces/${organization.workspaceId}/email_design_systems`, {
    name: 'Fixture system',
    access_scope: 'this_workspace_only',
  });
  const component = await post(
    `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${designSystem.id}/components`,
    {
      name: 'fixture',
      label: 'Fixture',
      template: '<p>{{ text }}</p>',
      field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: '' }],
    },
  );
  const brandProfile = await post(
    `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${designSystem.id}/brand_profiles`,
    { name: 'Fixture brand', component_overrides: [] },
  );
  const container = await post(
    `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${designSystem.id}/components`,
    {
      name: 'container',
      label: 'Container',
      container: true,
      template: '{{ children }}',
      field_definitions: [],
    },
  );
  const layout = await post(`/api/v1/workspaces/${organization.workspaceId}/layouts`, {
    name: 'Fixture layout',
    email_design_system_id: designSystem.id,
    content: {
      container_component_instance: { id: 'c', component_id: container.id, field_values: {} },
      component_instances: [],
    },
  });
  const project = await post(`/api/v1/workspaces/${organization.workspaceId}/projects`, {
    name: 'Fixture project',
    team_id: team.id,
  });
  const email = await post(`/api/v1/workspaces/${organization.workspaceId}/emails`, {
    name: 'Fixture email',
    email_design_system_id: designSystem.id,
    project_id: project.id,
  });
  const workspaceBase = `/api/v1/workspaces/${organization.workspaceId}`;
  const profile = await post(`${workspaceBase}/dynamic_content_profiles`, { name: 'Fixture profile' });
  const conditional = await post(`${workspaceBase}/conditionals`, {
    label: 'Fixture conditional',
    branches: [{ key: 'a', label: 'A' }],
    default_value: { closing: '{% endif %}', branch_values: { a: '{% if a %}' } },
  });
  const tag = await post(`${workspaceBase}/personalization_tags`, {
    label: 'Fixture tag',
    default_value: 'there',
    example_value: 'Ada',
  });
  const trackingProfile = await post(`${workspaceBase}/link_tracking_profiles`, {
    name: 'Fixture tracking',
    parameters: [],
  });
  const feed = await post(`${workspaceBase}/feeds`, {
    name: 'Fixture feed',
    url: 'https://example.com/',
    request_method: 'GET',
    parameters: [],
    headers: [],
    fields: [],
  });
  return {
    organization,
    teamId: team.id,
    roleId: role.id,
    userId: user.id,
    apiKeyId: apiKey.id,
    imageId: image.id,
    designSystemId: designSystem.id,
    componentId: component.id,
    brandProfileId: brandProfile.id,
    layoutId: layout.id,
    projectId: project.id,
    emailId: email.id,
    dynamicContentProfileId: profile.id,
    conditionalId: conditional.id,
    personalizationTagId: tag.id,
    linkTrackingProfileId: trackingProfile.id,
    feedId: feed.id,
  };
}

/** The id each `:id` stands for, by the collection it follows. */
function fillPath(url: string, fixture: Fixture): string {
  const byCollection: Record<string, number | string> = {
    images: fixture.imageId,
    email_design_systems: fixture.designSystemId,
    components: fixture.componentId,
    brand_profiles: fixture.brandProfileId,
    layouts: fixture.layoutId,
    projects: fixture.projectId,
    emails: fixture.emailId,
    dynamic_content_profiles: fixture.dynamicContentProfileId,
    conditionals: fixture.conditionalId,
    personalization_tags: fixture.personalizationTagId,
    link_tracking_profiles: fixture.linkTrackingProfileId,
    feeds: fixture.feedId,
    workspaces: fixture.organization.workspaceId,
    teams: fixture.teamId,
    roles: fixture.roleId,
    users: fixture.userId,
    api_keys: fixture.apiKeyId,
  };
  const segments = url.split('/');
  return segments
    .map((segment, index) => {
      if (segment === ':workspace_id') return String(fixture.organization.workspaceId);
      if (segment === ':email_design_system_id') return String(fixture.designSystemId);
      if (segment === ':team_id') return String(fixture.teamId);
      if (segment === ':user_id') return String(fixture.userId);
      if (segment === ':locale') return 'en-US';
      if (segment === ':version_id') return 'first';
      if (segment === ':id') {
        const id = byCollection[segments[index - 1] ?? ''];
        if (id === undefined)
          throw new Error(`No fixture id for ${url}: add one to the access test's fixture`);
        return String(id);
      }
      if (segment.startsWith(':'))
        throw new Error(`No fixture value for ${segment} in ${url}: add one to the access test`);
      return segment;
    })
    .join('/');
}

/**
 * Valid bodies for writes to a record, so that the cross-organization call reaches the record
 * lookup (and its 404) instead of stopping at schema validation. (Permission checks come before
 * validation, so the 403 calls need none.)
 */
function validBody(method: string, url: string, fixture: Fixture): object | undefined {
  const bodies: Record<string, object> = {
    'PATCH /api/v1/users/:id': { role_id: fixture.organization.roleIds.Viewer },
    'PATCH /api/v1/roles/:id': { name: 'Renamed' },
    'PATCH /api/v1/workspaces/:id': { name: 'Renamed' },
    'POST /api/v1/workspaces/:workspace_id/users': { user_id: fixture.userId },
    'PATCH /api/v1/teams/:id': { name: 'Renamed' },
    'POST /api/v1/teams/:team_id/users': { user_id: fixture.userId },
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
  let app: App;
  let home: Fixture;
  let outsider: TestOrganization;

  beforeAll(async () => {
    app = await buildTestApp();
    home = await buildFixture(app, await createTestOrganization(app, 'Home'));
    outsider = await createTestOrganization(app, 'Outsider');
  });
  afterAll(() => app.close());

  const apiRoutes = () => app.routePermissions.filter((route) => route.url.startsWith('/api/'));

  it('declares who may call it (the server refuses to start otherwise)', async () => {
    expect(apiRoutes().length).toBeGreaterThan(30);
    const bare = Fastify();
    registerAccessControl(bare, testConfig());
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
            role_permissions: permissionKeys.filter((key) => key !== route.permission),
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
      expect(response.json()).toEqual({ message: `You need the ${route.permission} permission to do this` });
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
    ]) {
      const body = (await app.inject({ method: 'GET', url: `${url}?per=100`, headers: foreignAdmin })).json();
      const text = JSON.stringify(body.results);
      expect(text, url).not.toContain('Fixture');
      expect(text, url).not.toContain(home.organization.admin.email);
    }
  });
});
