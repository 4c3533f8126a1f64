import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeadersFor, createTestOrganization } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

const container = {
  name: 'container',
  label: 'Container',
  container: true,
  template: '<html><body>{{children}}</body></html>',
  field_definitions: [],
};
const block = (index: number) => ({
  name: `block_${String(index).padStart(2, '0')}`,
  label: `Block ${index}`,
  template: '<p>{{ text }}</p>',
  field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'Hi' }],
});

describe('the list of a design system’s components', () => {
  let app: TestApp;
  let admin: Record<string, string>;
  let systemUrl: string;
  /** The names, container first then in palette order: what paging through must give. */
  const everyName = ['container', ...Array.from({ length: 14 }, (_, index) => block(index + 1).name)];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
    const system = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/email_design_systems`,
      headers: admin,
      payload: { name: 'Many components', access_scope: 'all_workspaces' },
    });
    systemUrl = `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${system.json().id}`;
    for (const payload of [container, ...Array.from({ length: 14 }, (_, index) => block(index + 1))]) {
      const created = await app.inject({
        method: 'POST',
        url: `${systemUrl}/components`,
        headers: admin,
        payload,
      });
      expect(created.statusCode, created.body).toBe(200);
      ids[payload.name] = created.json().id;
    }
  });
  afterAll(() => app.close());

  const list = async (query: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `${systemUrl}/components${query}`,
      headers: admin,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      results: { name: string }[];
      pagination: { per: number; page: number; total: number };
    };
  };
  const names = (page: { results: { name: string }[] }) => page.results.map((component) => component.name);

  it('answers 10 at first, with the pagination every list has', async () => {
    const first = await list('');
    expect(first.pagination).toEqual({ per: 10, page: 1, total: 15 });
    expect(names(first)).toEqual(everyName.slice(0, 10));
  });

  it('pages through every component in order, container first', async () => {
    const pages = [await list('?per=4&page=1'), await list('?per=4&page=2'), await list('?per=4&page=3')];
    const last = await list('?per=4&page=4');
    expect(pages.map((page) => page.pagination)).toEqual([
      { per: 4, page: 1, total: 15 },
      { per: 4, page: 2, total: 15 },
      { per: 4, page: 3, total: 15 },
    ]);
    expect([...pages, last].flatMap(names)).toEqual(everyName);
    expect(names(await list('?per=100'))).toEqual(everyName);
    expect((await list('?per=4&page=5')).results).toEqual([]);
  });

  it('leaves a brand’s hidden components out of its pages and its total', async () => {
    const profile = await app.inject({
      method: 'POST',
      url: `${systemUrl}/brand_profiles`,
      headers: admin,
      payload: {
        name: 'Outlet',
        component_overrides: ['block_02', 'block_03'].map((name) => ({
          component_id: ids[name],
          hidden: true,
          field_overrides: [],
        })),
      },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    const query = `?brand_profile_id=${profile.json().id}&per=5`;
    const pages = [
      await list(`${query}&page=1`),
      await list(`${query}&page=2`),
      await list(`${query}&page=3`),
    ];
    expect(pages.map((page) => page.pagination.total)).toEqual([13, 13, 13]);
    expect(pages.flatMap(names)).toEqual(
      everyName.filter((name) => !['block_02', 'block_03'].includes(name)),
    );
  });

  it('refuses a page size over 100 with a 422 naming per', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `${systemUrl}/components?per=101`,
      headers: admin,
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['per']);
  });

  it('answers a reorder with every component, however many pages they take', async () => {
    const palette = everyName.slice(1).reverse();
    const response = await app.inject({
      method: 'POST',
      url: `${systemUrl}/reorder_components`,
      headers: admin,
      payload: { component_ids: palette.map((name) => ids[name]) },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(names(response.json())).toEqual(['container', ...palette]);
  });
});
