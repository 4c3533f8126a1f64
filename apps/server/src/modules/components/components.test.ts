import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, signInAs, type TestOrganization } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

const container = {
  name: 'container',
  label: 'Container',
  container: true,
  template: '<html><body style="background: {{ background }}">{{children}}</body></html>',
  field_definitions: [
    { type: 'color', label: 'Background', liquid_variable: 'background', default_value: '#ffffff' },
  ],
};

const hero = {
  name: 'hero',
  label: 'Hero',
  template:
    '<h1 data-es-field-focus="headline">{{ headline }}</h1>{% if show_cta %}<a href="{{ cta_url }}">Go</a>{% endif %}',
  field_definitions: [
    {
      type: 'text',
      label: 'Headline',
      liquid_variable: 'headline',
      default_value: 'Hello',
      validations: { max_length: 80 },
    },
    { type: 'boolean', label: 'Show button', liquid_variable: 'show_cta', default_value: true },
    {
      type: 'url',
      label: 'Button link',
      liquid_variable: 'cta_url',
      default_value: 'https://example.com',
      visible_if: 'show_cta == true',
    },
  ],
};

describe('components', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let systemUrl: string;
  let componentsUrl: string;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    const system = (
      await app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${organization.workspaceId}/email_design_systems`,
        headers: admin,
        payload: {
          name: 'Builder test',
          access_scope: 'all_workspaces',
          custom_styles: [{ name: 'accent', label: 'Accent', style: 'color: red;' }],
        },
      })
    ).json();
    systemUrl = `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${system.id}`;
    componentsUrl = `${systemUrl}/components`;
  });
  afterAll(() => app.close());

  const post = (payload: object) =>
    app.inject({ method: 'POST', url: componentsUrl, headers: admin, payload });

  it('adds a container and components, listed container first then in order', async () => {
    expect((await post(container)).statusCode).toBe(200);
    const created = await post(hero);
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      name: 'hero',
      label: 'Hero',
      container: false,
      position: 1,
      deprecated: false,
      last_updated_by: { id: organization.admin.id, first_name: 'Ada' },
    });
    await post({ ...hero, name: 'footer', label: 'Footer' });
    const list = (await app.inject({ method: 'GET', url: componentsUrl, headers: admin })).json();
    expect(list.results.map((component: { name: string }) => component.name)).toEqual([
      'container',
      'hero',
      'footer',
    ]);
  });

  it('refuses a template that does not parse, naming line and column', async () => {
    const response = await post({
      ...hero,
      name: 'broken',
      template: '<p>\n  {% if headline %}\n  {{ headline }}\n</p>',
    });
    expect(response.statusCode).toBe(422);
    const [message] = response.json().errors.template;
    expect(message).toMatch(/\(line \d+, column \d+\)$/);
  });

  it('refuses an unknown filter', async () => {
    const response = await post({ ...hero, name: 'filtered', template: '<p>{{ headline | sparkle }}</p>' });
    expect(response.json().errors.template[0]).toMatch(/sparkle/);
  });

  it('refuses bad field definitions, each at its path', async () => {
    const response = await post({
      name: 'bad_fields',
      label: 'Bad fields',
      template: '<p>{{ title }}</p>',
      field_definitions: [
        { type: 'text', label: 'Title', liquid_variable: 'title', default_value: 'x' },
        { type: 'text', label: 'Again', liquid_variable: 'title', default_value: 'y' },
        { type: 'number', label: 'Count', liquid_variable: 'count', default_value: 'three' },
        {
          type: 'enum',
          label: 'Size',
          liquid_variable: 'size',
          default_value: 'huge',
          options: [{ label: 'Small', value: 'small' }],
        },
        { type: 'text', label: 'Bad name', liquid_variable: 'not an identifier', default_value: '' },
        {
          type: 'rich_text',
          label: 'Body',
          liquid_variable: 'body',
          default_value: '',
          custom_styles_names: ['nope'],
        },
      ],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual([
      'field_definitions.1.liquid_variable',
      'field_definitions.2.default_value',
      'field_definitions.3.default_value',
      'field_definitions.4.liquid_variable',
      'field_definitions.5.custom_styles_names.0',
    ]);
  });

  it('refuses an unknown field type or key through the schema', async () => {
    const response = await post({
      name: 'typed',
      label: 'Typed',
      template: '<p></p>',
      field_definitions: [
        { type: 'video', label: 'Clip', liquid_variable: 'clip', default_value: '', colour: 'red' },
      ],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual([
      'field_definitions.0.colour',
      'field_definitions.0.type',
    ]);
  });

  it('allows one container only, and it must contain {{children}}', async () => {
    const second = await post({ ...container, name: 'second_container' });
    expect(second.json().errors.container).toEqual([
      'this design system already has a container; change that one instead',
    ]);
    const other = (
      await app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${organization.workspaceId}/email_design_systems`,
        headers: admin,
        payload: { name: 'Childless', access_scope: 'this_workspace_only' },
      })
    ).json();
    const childless = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${other.id}/components`,
      headers: admin,
      payload: { ...container, template: '<html><body></body></html>' },
    });
    expect(childless.json().errors.template[0]).toMatch(/\{\{children\}\}/);
  });

  it('refuses a name already used in the system', async () => {
    expect((await post(hero)).json().errors).toEqual({ name: ['is already taken in this design system'] });
  });

  it('records a version per change, newest first', async () => {
    const component = (await post({ ...hero, name: 'versioned', label: 'Versioned' })).json();
    const url = `${componentsUrl}/${component.id}`;
    await app.inject({ method: 'PATCH', url, headers: admin, payload: { label: 'Versioned 2' } });
    await app.inject({
      method: 'PATCH',
      url,
      headers: admin,
      payload: { template: '<h2>{{ headline }}</h2>' },
    });
    const versions = (await app.inject({ method: 'GET', url: `${url}/versions`, headers: admin })).json();
    expect(versions.pagination.total).toBe(3);
    expect(versions.results[0].component_data).toMatchObject({
      label: 'Versioned 2',
      template: '<h2>{{ headline }}</h2>',
    });
    expect(versions.results[2].component_data.label).toBe('Versioned');
    expect(versions.results[0].version_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(versions.results[0].last_updated_by.id).toBe(organization.admin.id);
  });

  it('reorders with every non-container component exactly once', async () => {
    const list = (await app.inject({ method: 'GET', url: componentsUrl, headers: admin })).json();
    const ids = list.results
      .filter((component: { container: boolean }) => !component.container)
      .map((component: { id: number }) => component.id);
    const reversed = [...ids].reverse();
    const response = await app.inject({
      method: 'POST',
      url: `${systemUrl}/reorder_components`,
      headers: admin,
      payload: { component_ids: reversed },
    });
    expect(
      response
        .json()
        .results.slice(1)
        .map((component: { id: number }) => component.id),
    ).toEqual(reversed);
    const partial = await app.inject({
      method: 'POST',
      url: `${systemUrl}/reorder_components`,
      headers: admin,
      payload: { component_ids: ids.slice(1) },
    });
    expect(partial.json().errors).toEqual({
      component_ids: ['must list every component of the design system except the container, once each'],
    });
  });

  it('never deletes the container; deletes other components', async () => {
    const list = (await app.inject({ method: 'GET', url: componentsUrl, headers: admin })).json();
    const [containerComponent, first] = list.results;
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `${componentsUrl}/${containerComponent.id}`,
          headers: admin,
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (await app.inject({ method: 'DELETE', url: `${componentsUrl}/${first.id}`, headers: admin }))
        .statusCode,
    ).toBe(204);
  });

  it('lets other workspaces read a shared system’s components but not change them', async () => {
    const other = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'Elsewhere', auto_join: false },
      })
    ).json();
    const elsewhere = componentsUrl.replace(
      `/workspaces/${organization.workspaceId}/`,
      `/workspaces/${other.id}/`,
    );
    expect((await app.inject({ method: 'GET', url: elsewhere, headers: admin })).statusCode).toBe(200);
    const refused = await app.inject({
      method: 'POST',
      url: elsewhere,
      headers: admin,
      payload: { ...hero, name: 'intruder' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('fills fields from a feed of its workspace, which then cannot be deleted while used', async () => {
    const feedsUrl = `/api/v1/workspaces/${organization.workspaceId}/feeds`;
    const feed = (
      await app.inject({
        method: 'POST',
        url: feedsUrl,
        headers: admin,
        payload: {
          name: 'Offers',
          url: 'https://feeds.example.com/offer',
          request_method: 'GET',
          parameters: [],
          headers: [],
          fields: [{ key: 'title', value: '$.title' }],
        },
      })
    ).json();
    const offer = {
      ...hero,
      name: 'offer',
      label: 'Offer',
      feed_id: feed.id,
      field_definitions: [{ ...hero.field_definitions[0], feed_field_name: 'title' }],
    };

    expect((await post({ ...offer, feed_id: 999_999 })).json().errors).toEqual({
      feed_id: ['is not a feed of this workspace'],
    });
    const created = await post(offer);
    expect(created.statusCode, created.body).toBe(200);
    expect(feed.id, JSON.stringify(feed)).toBeTypeOf('number');
    expect(created.json().feed_id).toBe(feed.id);
    expect(created.json().field_definitions[0].feed_field_name).toBe('title');

    const refused = await app.inject({ method: 'DELETE', url: `${feedsUrl}/${feed.id}`, headers: admin });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.id[0]).toContain('“Offer”');

    const detached = await app.inject({
      method: 'PATCH',
      url: `${componentsUrl}/${created.json().id}`,
      headers: admin,
      payload: { feed_id: null },
    });
    expect(detached.json().feed_id).toBeNull();
    expect(
      (await app.inject({ method: 'DELETE', url: `${feedsUrl}/${feed.id}`, headers: admin })).statusCode,
    ).toBe(204);
  });
});
