import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, signInAs, type TestOrganization } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('email design systems', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let home: string;
  let elsewhere: string;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    const other = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'EMEA', auto_join: false },
      })
    ).json();
    home = `/api/v1/workspaces/${organization.workspaceId}/email_design_systems`;
    elsewhere = `/api/v1/workspaces/${other.id}/email_design_systems`;
  });
  afterAll(() => app.close());

  const create = (url: string, payload: object) =>
    app.inject({ method: 'POST', url, headers: admin, payload });
  const names = async (url: string) =>
    (await app.inject({ method: 'GET', url, headers: admin }))
      .json()
      .results.map((system: { name: string }) => system.name);

  it('creates, reads, updates and deletes a design system', async () => {
    const created = await create(home, {
      name: 'Newsletter',
      description: 'Monthly news',
      access_scope: 'this_workspace_only',
      require_brand_profile_for_use: true,
      design_tokens: { colors: { primary: '#1890ff' } },
      custom_styles: [{ name: 'brand_highlight', label: 'Highlight', style: 'color: #1890ff;' }],
    });
    expect(created.statusCode).toBe(200);
    const system = created.json();
    expect(system).toMatchObject({
      name: 'Newsletter',
      workspace_id: organization.workspaceId,
      shared: false,
      access_scope: 'this_workspace_only',
      require_brand_profile_for_use: true,
      archived: false,
      design_tokens: { colors: { primary: '#1890ff' } },
      custom_styles: [{ name: 'brand_highlight', label: 'Highlight', style: 'color: #1890ff;' }],
      upload_status: 'ready',
    });
    const url = `${home}/${system.id}`;
    expect((await app.inject({ method: 'GET', url, headers: admin })).json().name).toBe('Newsletter');
    const updated = await app.inject({
      method: 'PATCH',
      url,
      headers: admin,
      payload: { name: 'Newsletter 2', design_tokens: {} },
    });
    expect(updated.json()).toMatchObject({ name: 'Newsletter 2', design_tokens: {} });
    expect((await app.inject({ method: 'DELETE', url, headers: admin })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url, headers: admin })).statusCode).toBe(404);
  });

  it('names every problem of a bad create in one 422', async () => {
    const response = await create(home, {
      access_scope: 'everyone',
      custom_styles: [{ name: 'Bad Name', label: '', style: 'x' }],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      name: ['is required'],
      access_scope: ['must be one of: all_workspaces, this_workspace_only'],
      'custom_styles.0.name': ['has an invalid format'],
      'custom_styles.0.label': ["can't be blank"],
    });
    const duplicate = await create(home, {
      name: 'Dupes',
      access_scope: 'all_workspaces',
      custom_styles: [
        { name: 'accent', label: 'Accent', style: 'color: red;' },
        { name: 'accent', label: 'Accent again', style: 'color: blue;' },
      ],
    });
    expect(duplicate.json().errors).toEqual({
      'custom_styles.1.name': ['is already used by another custom style'],
    });
  });

  it('shares all_workspaces systems with other workspaces read-only, and hides this_workspace_only ones', async () => {
    const shared = (await create(home, { name: 'Brand shared', access_scope: 'all_workspaces' })).json();
    const local = (await create(home, { name: 'Home only', access_scope: 'this_workspace_only' })).json();

    expect(await names(elsewhere)).toContain('Brand shared');
    expect(await names(elsewhere)).not.toContain('Home only');
    expect(await names(`${elsewhere}?include_shared=false`)).not.toContain('Brand shared');

    const seenElsewhere = await app.inject({
      method: 'GET',
      url: `${elsewhere}/${shared.id}`,
      headers: admin,
    });
    expect(seenElsewhere.json()).toMatchObject({ shared: true, workspace_id: organization.workspaceId });
    expect(
      (await app.inject({ method: 'GET', url: `${elsewhere}/${local.id}`, headers: admin })).statusCode,
    ).toBe(404);

    const editElsewhere = await app.inject({
      method: 'PATCH',
      url: `${elsewhere}/${shared.id}`,
      headers: admin,
      payload: { name: 'Hijacked' },
    });
    expect(editElsewhere.statusCode).toBe(403);
    expect(editElsewhere.json()).toEqual({
      code: 'permission_denied',
      message: 'This design system is shared from another workspace; change it from its own workspace',
    });
    expect(
      (await app.inject({ method: 'DELETE', url: `${elsewhere}/${shared.id}`, headers: admin })).statusCode,
    ).toBe(403);
  });

  it('hides archived systems unless asked, and sorts', async () => {
    const archived = (
      await create(home, { name: 'Zz archived', access_scope: 'this_workspace_only' })
    ).json();
    await app.inject({
      method: 'PATCH',
      url: `${home}/${archived.id}`,
      headers: admin,
      payload: { archived: true },
    });
    expect(await names(home)).not.toContain('Zz archived');
    expect(await names(`${home}?archived=true`)).toEqual(['Zz archived']);
    expect(await names(`${home}?archived=all&per=100`)).toContain('Zz archived');
    const descending = await names(`${home}?sort=name_desc&archived=all&per=100`);
    expect(descending).toEqual([...descending].sort().reverse());
    expect(
      (await app.inject({ method: 'GET', url: `${home}?sort=sideways`, headers: admin })).statusCode,
    ).toBe(422);
  });

  it('keeps other organizations out', async () => {
    const system = (await create(home, { name: 'Private', access_scope: 'all_workspaces' })).json();
    const stranger = await createTestOrganization(app);
    const strangerHeaders = await signInAs(app, stranger.admin);
    const strangerUrl = `/api/v1/workspaces/${stranger.workspaceId}/email_design_systems`;
    expect(
      (await app.inject({ method: 'GET', url: `${strangerUrl}/${system.id}`, headers: strangerHeaders }))
        .statusCode,
    ).toBe(404);
    const list = (await app.inject({ method: 'GET', url: strangerUrl, headers: strangerHeaders })).json();
    expect(list.results.map((item: { name: string }) => item.name)).toEqual(['Letterset Starter']);
  });
});
