import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, signInAs } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('brand profiles', () => {
  let app: TestApp;
  let admin: Record<string, string>;
  let base: string;
  let systemUrl: string;
  let systemId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    const system = (
      await app.inject({
        method: 'POST',
        url: `${base}/email_design_systems`,
        headers: admin,
        payload: {
          name: 'Multi-brand',
          access_scope: 'this_workspace_only',
          design_tokens: { colors: { brand: '#111111', text: '#222222' } },
        },
      })
    ).json();
    systemId = system.id;
    systemUrl = `${base}/email_design_systems/${system.id}`;
    const add = async (payload: object) =>
      (await app.inject({ method: 'POST', url: `${systemUrl}/components`, headers: admin, payload })).json();
    ids.container = (
      await add({
        name: 'container',
        label: 'Container',
        container: true,
        template: '<div>{{ children }}</div>',
        field_definitions: [],
      })
    ).id;
    ids.heading = (
      await add({
        name: 'heading',
        label: 'Heading',
        template:
          '<h1 style="color: {{ render_context.design_tokens.colors.brand }}; background: {{ render_context.design_tokens.colors.text }}">{{ text }}</h1>',
        field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'Hello' }],
      })
    ).id;
    ids.promo = (
      await add({
        name: 'promo',
        label: 'Promo',
        template: '<p>Promo</p>',
        field_definitions: [
          { type: 'number', label: 'Percent', liquid_variable: 'percent', default_value: 10 },
        ],
      })
    ).id;
  });
  afterAll(() => app.close());

  const createProfile = (payload: object) =>
    app.inject({ method: 'POST', url: `${systemUrl}/brand_profiles`, headers: admin, payload });

  it('creates, lists, updates and deletes a brand profile', async () => {
    const created = await createProfile({ name: 'Sister brand', component_overrides: [] });
    expect(created.statusCode).toBe(200);
    const profile = created.json();
    expect(profile).toMatchObject({
      name: 'Sister brand',
      email_design_system_id: systemId,
      design_tokens: {},
      component_overrides: [],
    });
    const url = `${systemUrl}/brand_profiles/${profile.id}`;
    const list = (
      await app.inject({ method: 'GET', url: `${systemUrl}/brand_profiles`, headers: admin })
    ).json();
    expect(list.results.map((item: { id: number }) => item.id)).toContain(profile.id);
    expect(
      (await app.inject({ method: 'PATCH', url, headers: admin, payload: { name: 'Renamed' } })).json().name,
    ).toBe('Renamed');
    expect((await app.inject({ method: 'DELETE', url, headers: admin })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url, headers: admin })).statusCode).toBe(404);
  });

  it('refuses overrides of unknown components and fields, and defaults of the wrong type', async () => {
    const response = await createProfile({
      name: 'Broken',
      component_overrides: [
        { component_id: 999_999, hidden: false, field_overrides: [] },
        { component_id: ids.heading, hidden: false, field_overrides: [{ liquid_variable: 'nope' }] },
        {
          component_id: ids.promo,
          hidden: false,
          field_overrides: [{ liquid_variable: 'percent', default_value: 'ten' }],
        },
      ],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      'component_overrides.0.component_id': ['is not a component of this design system'],
      'component_overrides.1.field_overrides.0.liquid_variable': ['is not a field of this component'],
      'component_overrides.2.field_overrides.0.default_value': ['must be a valid number value'],
    });
  });

  it('shows the components as the brand sees them, and renders as the brand', async () => {
    const profile = (
      await createProfile({
        name: 'Outlet',
        design_tokens: { colors: { brand: '#ff0000' } },
        component_overrides: [
          { component_id: ids.promo, hidden: true, field_overrides: [] },
          {
            component_id: ids.heading,
            hidden: false,
            field_overrides: [{ liquid_variable: 'text', default_value: 'Outlet deals', label: 'Headline' }],
          },
        ],
      })
    ).json();

    const branded = (
      await app.inject({
        method: 'GET',
        url: `${systemUrl}/components?brand_profile_id=${profile.id}`,
        headers: admin,
      })
    ).json();
    expect(branded.results.map((component: { name: string }) => component.name)).toEqual([
      'container',
      'heading',
    ]);
    expect(branded.results[1].field_definitions[0]).toMatchObject({
      label: 'Headline',
      default_value: 'Outlet deals',
    });
    const plain = (
      await app.inject({ method: 'GET', url: `${systemUrl}/components`, headers: admin })
    ).json();
    expect(plain.results).toHaveLength(3);

    const rendered = await app.inject({
      method: 'POST',
      url: `${base}/renders`,
      headers: admin,
      payload: {
        email_design_system_id: systemId,
        brand_profile_id: profile.id,
        content: {
          container_component_instance: { component_id: ids.container },
          component_instances: [{ component_id: ids.heading }, { component_id: ids.promo }],
        },
      },
    });
    expect(rendered.statusCode).toBe(200);
    // Tokens deep-merged (brand colour from the profile, text colour from the system), the default overridden, the promo hidden.
    expect(rendered.json().html).toBe(
      '<div><h1 style="color: #ff0000; background: #222222">Outlet deals</h1></div>',
    );
  });

  it('refuses a brand profile of another design system in a render', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${base}/renders`,
      headers: admin,
      payload: {
        email_design_system_id: systemId,
        brand_profile_id: 999_999,
        content: { container_component_instance: { component_id: ids.container }, component_instances: [] },
      },
    });
    expect(response.json().errors).toEqual({
      brand_profile_id: ['is not a brand profile of this design system'],
    });
  });
});
