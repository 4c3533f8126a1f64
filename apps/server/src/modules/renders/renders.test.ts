import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { components } from '../../db/schema.ts';
import { createTestOrganization, signInAs } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('the render API', () => {
  let app: TestApp;
  let admin: Record<string, string>;
  let rendersUrl: string;
  let systemId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    const base = `/api/v1/workspaces/${organization.workspaceId}`;
    rendersUrl = `${base}/renders`;
    const system = (
      await app.inject({
        method: 'POST',
        url: `${base}/email_design_systems`,
        headers: admin,
        payload: {
          name: 'Transactional',
          access_scope: 'this_workspace_only',
          design_tokens: { colors: { brand: '#1890ff' } },
        },
      })
    ).json();
    systemId = system.id;
    const add = async (payload: object) =>
      (
        await app.inject({
          method: 'POST',
          url: `${base}/email_design_systems/${system.id}/components`,
          headers: admin,
          payload,
        })
      ).json();
    ids.container = (
      await add({
        name: 'container',
        label: 'Container',
        container: true,
        template:
          '<html><head><title>{{ render_context.email.content.subject }}</title></head><body>{{ children }}<p>{{ global_fields.footer }}</p></body></html>',
        field_definitions: [
          { type: 'text', label: 'Footer', liquid_variable: 'footer', default_value: 'Acme Inc.' },
        ],
      })
    ).id;
    ids.heading = (
      await add({
        name: 'heading',
        label: 'Heading',
        template: '<h1 style="color: {{ render_context.design_tokens.colors.brand }}">{{ text }}</h1>',
        field_definitions: [
          { type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'Welcome' },
        ],
      })
    ).id;
    // Saving refuses a template that cannot render within the budget: this one was stored before.
    const [loop] = await app.services.database.db
      .insert(components)
      .values({
        organizationId: organization.organizationId,
        emailDesignSystemId: system.id,
        name: 'runaway',
        label: 'Runaway',
        template: '{% for i in (1..100000000) %}{{ i }}{% endfor %}',
        fieldDefinitions: [],
      })
      .returning();
    ids.loop = loop?.id ?? 0;
  });
  afterAll(() => app.close());

  const renderRequest = (payload: object) =>
    app.inject({ method: 'POST', url: rendersUrl, headers: admin, payload });

  it('renders the simple shape, with defaults for values left out', async () => {
    const response = await renderRequest({
      email_design_system_id: systemId,
      content: {
        subject: 'Your order',
        preheader: 'It ships today',
        container_component_instance: { component_id: ids.container },
        component_instances: [
          { component_id: ids.heading, field_values: { text: 'Thanks, Ada & co' } },
          { component_id: ids.heading },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.html).toBe(
      '<html><head><title>Your order</title></head><body><h1 style="color: #1890ff">Thanks, Ada &amp; co</h1><h1 style="color: #1890ff">Welcome</h1><p>Acme Inc.</p></body></html>',
    );
    expect(body).toMatchObject({ subject: 'Your order', preheader: 'It ships today' });
    expect(body).not.toHaveProperty('plain_text');
    expect(body.created_at).toMatch(/Z$/);
  });

  it('adds the plain text only when asked for it', async () => {
    const response = await renderRequest({
      email_design_system_id: systemId,
      plain_text: true,
      inline_css: true,
      content: {
        container_component_instance: { component_id: ids.container },
        component_instances: [
          { component_id: ids.heading, field_values: { text: 'Thanks, Ada & co' } },
          { component_id: ids.heading },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().plain_text).toBe('Thanks, Ada & co\n\nWelcome\n\nAcme Inc.');
  });

  it('is not written to the audit log: a render changes nothing', async () => {
    const rendered = await renderRequest({
      email_design_system_id: systemId,
      content: { container_component_instance: { component_id: ids.container }, component_instances: [] },
    });
    expect(rendered.statusCode).toBe(200);
    const log = await app.inject({ method: 'GET', url: '/api/v1/audit_logs?per=100', headers: admin });
    expect(log.statusCode).toBe(200);
    const types = log.json().results.map((entry: { resource_type: string }) => entry.resource_type);
    expect(types).toContain('workspaces.email_design_systems.components');
    expect(types).not.toContain('workspaces.renders');
  });

  it('renders the branch/locale shape for the requested locale', async () => {
    const response = await renderRequest({
      email_design_system_id: systemId,
      locale: 'de-DE',
      email_content: {
        subject: { branch_content: { null_branch: { 'de-DE': 'Ihre Bestellung', 'en-US': 'Your order' } } },
        preheader: { branch_content: { null_branch: { 'de-DE': '' } } },
        container_component_instance: { id: randomUUID(), component_id: ids.container, field_values: {} },
        component_instances: [
          {
            id: randomUUID(),
            component_id: ids.heading,
            field_values: {
              null_branch: { 'de-DE': { text: { value: 'Danke' } }, 'en-US': { text: { value: 'Thanks' } } },
            },
          },
        ],
      },
    });
    expect(response.json().subject).toBe('Ihre Bestellung');
    expect(response.json().html).toContain('>Danke</h1>');
  });

  it('compiles dynamic content as an export for a dynamic content profile, else shows defaults', async () => {
    const base = rendersUrl.replace(/\/renders$/, '');
    const post = async (path: string, payload: object) =>
      (await app.inject({ method: 'POST', url: `${base}/${path}`, headers: admin, payload })).json();
    const profile = await post('dynamic_content_profiles', {
      name: 'SFMC',
      template_engine_preset: 'ampscript',
    });
    const tag = await post('personalization_tags', {
      label: 'First name',
      default_value: 'there',
      example_value: 'Ada',
      dynamic_content_profile_values: { [profile.id]: '%%=v(@firstName)=%%' },
    });
    const conditional = await post('conditionals', {
      label: 'VIP',
      branches: [
        { key: 'vip', label: 'VIP' },
        { key: 'other', label: 'Other' },
      ],
      default_value: { closing: '{% endif %}', branch_values: { vip: '{% if vip %}', other: '{% else %}' } },
      dynamic_content_profile_values: {
        [profile.id]: {
          uses_ui_picker: true,
          ui_picker_state: {
            include_else_branch: true,
            branches: { vip: { conditions: [{ attribute: 'vip', type: 'boolean', operator: 'is_true' }] } },
          },
        },
      },
    });
    const text = (value: string) => ({ 'en-US': { text: { value } } });
    const emailContent = {
      subject: { branch_content: { null_branch: { 'en-US': `Hi ${tag.token}` } } },
      preheader: { branch_content: { null_branch: { 'en-US': '' } } },
      container_component_instance: { id: randomUUID(), component_id: ids.container, field_values: {} },
      component_instances: [
        {
          id: randomUUID(),
          component_id: ids.heading,
          conditional_id: conditional.id,
          field_values: { vip: text(`Welcome back, ${tag.token}`), other: text('Welcome') },
        },
      ],
    };
    const exported = await renderRequest({
      email_design_system_id: systemId,
      email_content: emailContent,
      dynamic_content_profile_id: profile.id,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().subject).toBe('Hi %%=v(@firstName)=%%');
    expect(exported.json().html).toContain(
      '<body>%%[ IF @vip == "true" THEN ]%%<h1 style="color: #1890ff">Welcome back, %%=v(@firstName)=%%</h1>' +
        '%%[ ELSE ]%%<h1 style="color: #1890ff">Welcome</h1>%%[ ENDIF ]%%<p>',
    );
    const plain = (
      await renderRequest({ email_design_system_id: systemId, email_content: emailContent })
    ).json();
    expect(plain.subject).toBe('Hi there');
    // One branch: the conditional's default, its last branch unless it chose another.
    expect(plain.html).toContain('<body><h1 style="color: #1890ff">Welcome</h1><p>');
    const unknown = await renderRequest({
      email_design_system_id: systemId,
      email_content: emailContent,
      dynamic_content_profile_id: '00000000-0000-4000-8000-000000000000',
      link_tracking_profile_id: 999_999,
    });
    expect(unknown.statusCode).toBe(422);
    const inSubject = await renderRequest({
      email_design_system_id: systemId,
      email_content: {
        ...emailContent,
        subject: { conditional_id: conditional.id, branch_content: { vip: { 'en-US': 'VIP' } } },
      },
    });
    expect(inSubject.statusCode).toBe(422);
    expect(inSubject.json().errors).toEqual({
      'email_content.subject.conditional_id': ['cannot be used in the subject and preheader'],
    });
    expect(unknown.json().errors).toEqual({
      dynamic_content_profile_id: ['is not a dynamic content profile of this workspace'],
    });
  });

  it('answers 422 naming the instance when a template runs away', async () => {
    const response = await renderRequest({
      email_design_system_id: systemId,
      content: {
        container_component_instance: { component_id: ids.container },
        component_instances: [{ component_id: ids.loop }],
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Validation failed');
    expect(Object.keys(response.json().errors)).toEqual(['content.component_instances.0']);
    expect(response.json().errors['content.component_instances.0'][0]).toMatch(/^runaway: /);
  });

  it('refuses components of other systems, a non-container as container, and both or neither shapes', async () => {
    const wrong = await renderRequest({
      email_design_system_id: systemId,
      content: {
        container_component_instance: { component_id: ids.heading },
        component_instances: [{ component_id: 999_999 }],
      },
    });
    expect(wrong.json().errors).toEqual({
      'content.container_component_instance.component_id': [
        'must be the container component of the design system',
      ],
      'content.component_instances.0.component_id': ['is not a component of the design system'],
    });
    const neither = await renderRequest({ email_design_system_id: systemId });
    expect(neither.json().errors).toEqual({ content: ['send either content or email_content'] });
  });

  describe('after a change to what it reads, the next render shows it', () => {
    let base: string;
    let system: number;
    let heading: number;
    let container: number;
    beforeAll(async () => {
      base = rendersUrl.replace(/\/renders$/, '');
      const created = await app.inject({
        method: 'POST',
        url: `${base}/email_design_systems`,
        headers: admin,
        payload: { name: 'Changing', access_scope: 'this_workspace_only', design_tokens: { color: 'red' } },
      });
      system = created.json().id;
      const add = (payload: object) =>
        app.inject({
          method: 'POST',
          url: `${base}/email_design_systems/${system}/components`,
          headers: admin,
          payload,
        });
      container = (
        await add({
          name: 'container',
          label: 'Container',
          container: true,
          template: '<body>{{ children }}</body>',
          field_definitions: [],
        })
      ).json().id;
      heading = (
        await add({
          name: 'heading',
          label: 'Heading',
          template: '<h1 style="color: {{ render_context.design_tokens.color }}">{{ text }}</h1>',
          field_definitions: [
            { type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'Hello' },
          ],
        })
      ).json().id;
    });

    const send = async (method: string, path: string, payload?: object) => {
      const response = await app.inject({
        method: method as 'PATCH',
        url: `${base}${path}`,
        headers: admin,
        payload,
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.body ? response.json() : null;
    };
    const renderHeading = async (extra: object = {}) => {
      const response = await renderRequest({
        email_design_system_id: system,
        content: {
          subject: 'Hi {{ first_name }}',
          container_component_instance: { component_id: container },
          component_instances: [{ component_id: heading }],
        },
        ...extra,
      });
      return response;
    };

    it('a design system’s tokens, a component’s template and its fields', async () => {
      expect((await renderHeading()).json().html).toBe('<body><h1 style="color: red">Hello</h1></body>');
      await send('PATCH', `/email_design_systems/${system}`, { design_tokens: { color: 'blue' } });
      expect((await renderHeading()).json().html).toBe('<body><h1 style="color: blue">Hello</h1></body>');
      await send('PATCH', `/email_design_systems/${system}/components/${heading}`, {
        template: '<h2>{{ text }}</h2>',
        field_definitions: [
          { type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'Bonjour' },
        ],
      });
      expect((await renderHeading()).json().html).toBe('<body><h2>Bonjour</h2></body>');
    });

    it('a brand profile, created, changed and deleted', async () => {
      const brand = await send('POST', `/email_design_systems/${system}/brand_profiles`, {
        name: 'Night',
        component_overrides: [],
        design_tokens: { color: 'black' },
      });
      await send('PATCH', `/email_design_systems/${system}/components/${heading}`, {
        template: '<h1 style="color: {{ render_context.design_tokens.color }}">{{ text }}</h1>',
      });
      expect((await renderHeading({ brand_profile_id: brand.id })).json().html).toContain('color: black');
      await send('PATCH', `/email_design_systems/${system}/brand_profiles/${brand.id}`, {
        design_tokens: { color: 'white' },
      });
      expect((await renderHeading({ brand_profile_id: brand.id })).json().html).toContain('color: white');
      await send('DELETE', `/email_design_systems/${system}/brand_profiles/${brand.id}`);
      const gone = await renderHeading({ brand_profile_id: brand.id });
      expect(gone.statusCode).toBe(422);
      expect(gone.json().errors).toEqual({
        brand_profile_id: ['is not a brand profile of this design system'],
      });
    });

    it('dynamic content: a personalization tag’s value and a dynamic content profile', async () => {
      const tag = await send('POST', '/personalization_tags', {
        label: 'Changing name',
        default_value: 'there',
        example_value: 'Ada',
      });
      const subjectWith = async (extra: object = {}) =>
        (
          await renderRequest({
            email_design_system_id: system,
            content: {
              subject: `Hi ${tag.token}`,
              container_component_instance: { component_id: container },
              component_instances: [],
            },
            ...extra,
          })
        ).json();
      expect((await subjectWith()).subject).toBe('Hi there');
      await send('PATCH', `/personalization_tags/${tag.id}`, { default_value: 'friend' });
      expect((await subjectWith()).subject).toBe('Hi friend');

      const profile = await send('POST', '/dynamic_content_profiles', {
        name: 'Changing',
        template_engine_preset: 'ampscript',
      });
      await send('PATCH', `/personalization_tags/${tag.id}`, {
        dynamic_content_profile_values: { [profile.id]: '%%=v(@name)=%%' },
      });
      expect((await subjectWith({ dynamic_content_profile_id: profile.id })).subject).toBe(
        'Hi %%=v(@name)=%%',
      );
      await send('DELETE', `/dynamic_content_profiles/${profile.id}`);
      const gone = await subjectWith({ dynamic_content_profile_id: profile.id });
      expect(gone.errors).toEqual({
        dynamic_content_profile_id: ['is not a dynamic content profile of this workspace'],
      });
    });

    it('a design system no longer shared, a deleted component and a deleted system', async () => {
      const second = await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'Second', auto_join: false },
      });
      expect(second.statusCode, second.body).toBe(201);
      const renderInSecond = async () =>
        app.inject({
          method: 'POST',
          url: `/api/v1/workspaces/${second.json().id}/renders`,
          headers: admin,
          payload: {
            email_design_system_id: system,
            content: {
              container_component_instance: { component_id: container },
              component_instances: [],
            },
          },
        });
      await send('PATCH', `/email_design_systems/${system}`, { access_scope: 'all_workspaces' });
      expect((await renderInSecond()).statusCode).toBe(200);
      await send('PATCH', `/email_design_systems/${system}`, { access_scope: 'this_workspace_only' });
      expect((await renderInSecond()).statusCode).toBe(404);

      await send('DELETE', `/email_design_systems/${system}/components/${heading}`);
      const deleted = await renderHeading();
      expect(deleted.statusCode).toBe(422);
      expect(deleted.json().errors).toEqual({
        'content.component_instances.0.component_id': ['is not a component of the design system'],
      });
      await send('DELETE', `/email_design_systems/${system}`);
      expect((await renderHeading()).statusCode).toBe(404);
    });
  });

  it('two organizations’ design systems are kept apart: each renders its own templates', async () => {
    const systemOf = async (template: string) => {
      const organization = await createTestOrganization(app);
      const headers = await signInAs(app, organization.admin);
      const base = `/api/v1/workspaces/${organization.workspaceId}`;
      const post = async (url: string, payload: object) =>
        (await app.inject({ method: 'POST', url: `${base}${url}`, headers, payload })).json();
      const system = await post('/email_design_systems', {
        name: 'Same name',
        access_scope: 'this_workspace_only',
      });
      const component = (name: string, container: boolean, text: string) =>
        post(`/email_design_systems/${system.id}/components`, {
          name,
          label: name,
          container,
          template: text,
          field_definitions: [],
        });
      const container = await component('container', true, '<body>{{ children }}</body>');
      const block = await component('block', false, template);
      return () =>
        app.inject({
          method: 'POST',
          url: `${base}/renders`,
          headers,
          payload: {
            email_design_system_id: system.id,
            content: {
              container_component_instance: { component_id: container.id },
              component_instances: [{ component_id: block.id }],
            },
          },
        });
    };
    const renderFirst = await systemOf('<p>first organization</p>');
    const renderSecond = await systemOf('<p>second organization</p>');
    for (let turn = 0; turn < 3; turn += 1) {
      const [first, second] = await Promise.all([renderFirst(), renderSecond()]);
      expect(first.json().html).toBe('<body><p>first organization</p></body>');
      expect(second.json().html).toBe('<body><p>second organization</p></body>');
    }
  });

  it('answers 404 for a design system the workspace cannot see', async () => {
    const response = await renderRequest({
      email_design_system_id: 999_999,
      content: { container_component_instance: { component_id: ids.container }, component_instances: [] },
    });
    expect(response.statusCode).toBe(404);
  });
});
