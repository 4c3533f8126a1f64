import { randomUUID } from 'node:crypto';
import { starterLayouts } from '@letterset/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, signInAs } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('layouts', () => {
  let app: TestApp;
  let admin: Record<string, string>;
  let base: string;
  let starter: { id: number; container: number; hero: number };
  let brandId: number;

  const instance = (componentId: number, text?: string) => ({
    id: randomUUID(),
    component_id: componentId,
    field_values: text ? { null_branch: { 'en-US': { headline: { value: text } } } } : {},
  });

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    const systems = (
      await app.inject({ method: 'GET', url: `${base}/email_design_systems`, headers: admin })
    ).json();
    const id = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter').id;
    const components = (
      await app.inject({
        method: 'GET',
        url: `${base}/email_design_systems/${id}/components`,
        headers: admin,
      })
    ).json().results;
    starter = { id, container: components[0].id, hero: components[1].id };
    brandId = (
      await app.inject({
        method: 'POST',
        url: `${base}/email_design_systems/${id}/brand_profiles`,
        headers: admin,
        payload: { name: 'Outlet', component_overrides: [] },
      })
    ).json().id;
  });
  afterAll(() => app.close());

  const create = (payload: object) =>
    app.inject({ method: 'POST', url: `${base}/layouts`, headers: admin, payload });
  const layoutBody = (name: string, extra: object = {}) => ({
    name,
    email_design_system_id: starter.id,
    locales: ['en-US', 'de-DE'],
    content: {
      container_component_instance: instance(starter.container),
      component_instances: [instance(starter.hero, 'Welcome')],
    },
    ...extra,
  });

  it('saves, reads, updates and deletes a layout', async () => {
    const created = await create(layoutBody('Welcome series'));
    expect(created.statusCode).toBe(200);
    const layout = created.json();
    expect(layout).toMatchObject({
      name: 'Welcome series',
      email_design_system_id: starter.id,
      brand_profile_id: null,
      locales: ['en-US', 'de-DE'],
    });
    expect(layout.content.component_instances[0].field_values).toEqual({
      null_branch: { 'en-US': { headline: { value: 'Welcome' } } },
    });
    const url = `${base}/layouts/${layout.id}`;
    expect(
      (
        await app.inject({
          method: 'PATCH',
          url,
          headers: admin,
          payload: { name: 'Welcome 2', brand_profile_id: brandId },
        })
      ).json(),
    ).toMatchObject({
      name: 'Welcome 2',
      brand_profile_id: brandId,
    });
    expect((await app.inject({ method: 'DELETE', url, headers: admin })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url, headers: admin })).statusCode).toBe(404);
  });

  it('filters by design system and by brand profile, null meaning none', async () => {
    await create(layoutBody('Plain'));
    await create(layoutBody('Branded', { brand_profile_id: brandId }));
    const names = async (query: string) =>
      (await app.inject({ method: 'GET', url: `${base}/layouts?${query}`, headers: admin }))
        .json()
        .results.map((layout: { name: string }) => layout.name);
    // Beside the starter's own layouts, which have no brand profile.
    const starterNames = starterLayouts().map((layout) => layout.name);
    const sorted = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : 1));
    expect(await names('brand_profile_id=null&sort=name_asc')).toEqual(sorted(['Plain', ...starterNames]));
    expect(await names(`brand_profile_id=${brandId}`)).toEqual(['Branded']);
    expect(await names(`email_design_system_id=${starter.id}&sort=name_asc`)).toEqual(
      sorted(['Branded', 'Plain', ...starterNames]),
    );
    expect(
      (await app.inject({ method: 'GET', url: `${base}/layouts?brand_profile_id=none`, headers: admin }))
        .statusCode,
    ).toBe(422);
  });

  it('refuses components and brand profiles that are not the design system’s', async () => {
    const response = await create(
      layoutBody('Wrong', {
        brand_profile_id: 999_999,
        content: {
          container_component_instance: instance(starter.hero),
          component_instances: [instance(999_999)],
        },
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      brand_profile_id: ['is not a brand profile of the layout’s design system'],
      'content.container_component_instance.component_id': [
        'must be the container component of the design system',
      ],
      'content.component_instances.0.component_id': ['is not a component of the design system'],
    });
    const unknownSystem = await create(layoutBody('No system', { email_design_system_id: 999_999 }));
    expect(unknownSystem.json().errors).toEqual({
      email_design_system_id: ['is not a design system this workspace can use'],
    });
  });

  it('refuses a write based on a stale lock_version with 409 and what is current, and saves nothing', async () => {
    const created = (await create(layoutBody('Versioned'))).json();
    expect(created.lock_version).toBe(1);
    const patch = (payload: object) =>
      app.inject({ method: 'PATCH', url: `${base}/layouts/${created.id}`, headers: admin, payload });

    const first = await patch({ name: 'Versioned, first', lock_version: 1 });
    expect(first.statusCode).toBe(200);
    expect(first.json().lock_version).toBe(2);

    const stale = await patch({ name: 'Versioned, stale', lock_version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: expect.stringContaining('changed since you loaded it'),
      lock_version: 2,
      layout: { id: created.id, name: 'Versioned, first', lock_version: 2 },
    });
    const current = (
      await app.inject({ method: 'GET', url: `${base}/layouts/${created.id}`, headers: admin })
    ).json();
    expect(current).toMatchObject({ name: 'Versioned, first', lock_version: 2 });

    // Without a lock_version the last write wins, and still moves the version on.
    const unguarded = await patch({ name: 'Versioned, last' });
    expect(unguarded.json()).toMatchObject({ name: 'Versioned, last', lock_version: 3 });
  });
});
