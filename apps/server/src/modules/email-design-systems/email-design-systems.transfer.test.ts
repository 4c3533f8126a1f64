import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, signInAs, type TestOrganization } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('design system import, export, sync and clone', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let systems: string;
  let starterId: number;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    systems = `/api/v1/workspaces/${organization.workspaceId}/email_design_systems`;
    const list = (await app.inject({ method: 'GET', url: systems, headers: admin })).json();
    starterId = list.results.find((system: { name: string }) => system.name === 'Letterset Starter').id;
  });
  afterAll(() => app.close());

  const exportOf = async (id: number) => {
    const response = await app.inject({ method: 'POST', url: `${systems}/${id}/export`, headers: admin });
    expect(response.statusCode).toBe(200);
    return response;
  };
  const componentsOf = async (id: number) =>
    (await app.inject({ method: 'GET', url: `${systems}/${id}/components?per=100`, headers: admin })).json()
      .results as {
      id: number;
      name: string;
      deprecated: boolean;
      container: boolean;
    }[];

  it('gives every new organization the Letterset Starter, shared with all its workspaces', async () => {
    const starter = (
      await app.inject({ method: 'GET', url: `${systems}/${starterId}`, headers: admin })
    ).json();
    expect(starter).toMatchObject({ access_scope: 'all_workspaces', archived: false });
    const components = await componentsOf(starterId);
    expect(components[0]?.container).toBe(true);
    expect(components.length).toBeGreaterThanOrEqual(13);
  });

  it('exports as a JSON download that imports back losslessly', async () => {
    const exported = await exportOf(starterId);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="letterset-starter.json"');
    const document = exported.json();
    document.email_design_system.name = 'Starter, imported';
    const imported = await app.inject({
      method: 'POST',
      url: `${systems}/import`,
      headers: admin,
      payload: document,
    });
    expect(imported.statusCode).toBe(200);
    const reexported = (await exportOf(imported.json().id)).json();
    expect(reexported).toEqual(document);
  });

  it('renders the seeded starter through the render API', async () => {
    const components = await componentsOf(starterId);
    const byName = Object.fromEntries(components.map((component) => [component.name, component.id]));
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/renders`,
      headers: admin,
      payload: {
        email_design_system_id: starterId,
        content: {
          subject: 'Autumn sale',
          preheader: 'Up to 40% off',
          container_component_instance: { component_id: components[0]?.id },
          component_instances: Object.entries(byName)
            .filter(([name]) => name !== components[0]?.name)
            .map(([, id]) => ({ component_id: id })),
        },
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().html).toMatch(/^<!DOCTYPE html>/i);
    expect(response.json().html).toContain('<title>Autumn sale</title>');
  });

  it('refuses a document with problems, at their paths, creating nothing', async () => {
    const document = (await exportOf(starterId)).json();
    document.email_design_system.name = 'Broken';
    document.email_design_system.components[1].template = '{% if %}';
    document.email_design_system.components[2].name = document.email_design_system.components[0].name;
    document.email_design_system.container_component.template = '<html></html>';
    const response = await app.inject({
      method: 'POST',
      url: `${systems}/import`,
      headers: admin,
      payload: document,
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual([
      'email_design_system.components.1.template',
      'email_design_system.components.2.name',
      'email_design_system.container_component.template',
    ]);
    const names = (await app.inject({ method: 'GET', url: `${systems}?per=100`, headers: admin }))
      .json()
      .results.map((system: { name: string }) => system.name);
    expect(names).not.toContain('Broken');
  });

  it('syncs: components matched by name keep their ids, missing ones are deprecated, new ones added', async () => {
    const copy = (
      await app.inject({ method: 'POST', url: `${systems}/${starterId}/clone`, headers: admin, payload: {} })
    ).json();
    expect(copy).toMatchObject({ name: 'Letterset Starter (copy)', access_scope: 'this_workspace_only' });
    const before = await componentsOf(copy.id);
    const document = (await exportOf(copy.id)).json();
    const [dropped, kept, ...rest] = document.email_design_system.components;
    kept.label = 'Renamed label';
    document.email_design_system.components = [
      kept,
      ...rest,
      {
        name: 'announcement',
        label: 'Announcement',
        template: '<p>{{ text }}</p>',
        field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'News' }],
      },
    ];
    document.email_design_system.design_tokens = { colors: { primary: '#000000' } };
    const synced = await app.inject({
      method: 'POST',
      url: `${systems}/${copy.id}/sync`,
      headers: admin,
      payload: document,
    });
    expect(synced.statusCode).toBe(200);
    expect(synced.json().design_tokens).toEqual({ colors: { primary: '#000000' } });

    const after = await componentsOf(copy.id);
    const keptBefore = before.find((component) => component.name === kept.name);
    const keptAfter = after.find((component) => component.name === kept.name);
    expect(keptAfter?.id).toBe(keptBefore?.id);
    expect(after.find((component) => component.name === dropped.name)).toMatchObject({ deprecated: true });
    expect(after.some((component) => component.name === 'announcement')).toBe(true);
  });

  it('lets only the owning workspace sync a shared system', async () => {
    const other = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'Elsewhere', auto_join: false },
      })
    ).json();
    const document = (await exportOf(starterId)).json();
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${other.id}/email_design_systems/${starterId}/sync`,
      headers: admin,
      payload: document,
    });
    expect(response.statusCode).toBe(403);
  });
});
