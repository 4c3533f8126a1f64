import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, signInAs } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { loadDynamicContent } from './dynamic-content-profiles.service.ts';

/** Braze-style Liquid for a profile attribute (a literal `${…}`, not a template placeholder). */
const brazeFirstName = ['{{ $', '{first_name} }}'].join('');

describe('dynamic content profiles', () => {
  let app: TestApp;
  let admin: Record<string, string>;
  let base: string;
  let workspaceId: number;

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    workspaceId = organization.workspaceId;
    base = `/api/v1/workspaces/${workspaceId}/dynamic_content_profiles`;
  });
  afterAll(() => app.close());

  const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });

  it('creates with a string id and describes its preset for the picker', async () => {
    const created = await request('POST', base, { name: 'Iterable', template_engine_preset: 'handlebars' });
    expect(created.statusCode).toBe(200);
    const profile = created.json();
    expect(profile.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(profile.template_engine_preset).toBe('handlebars');
    expect(profile.template_engine_preset_schema.joiners).toEqual(['and', 'or']);
    expect(profile.template_engine_preset_schema.operators_by_type.string[0]).toEqual({
      key: 'equals',
      requires_value: true,
    });
    const plain = (await request('POST', base, { name: 'Hand-written' })).json();
    expect(plain).toMatchObject({ template_engine_preset: null, template_engine_preset_schema: null });

    const updated = await request('PATCH', `${base}/${profile.id}`, {
      name: 'Salesforce Marketing Cloud',
      template_engine_preset: 'ampscript',
    });
    expect(updated.json()).toMatchObject({
      name: 'Salesforce Marketing Cloud',
      template_engine_preset: 'ampscript',
    });
    expect((await request('GET', `${base}/${profile.id}`)).json().name).toBe('Salesforce Marketing Cloud');
    expect((await request('GET', base)).json().pagination.total).toBe(2);
    expect((await request('DELETE', `${base}/${plain.id}`)).statusCode).toBe(204);
    expect((await request('GET', `${base}/${plain.id}`)).statusCode).toBe(404);
  });

  it('refuses unknown presets, blank names and ids that are not UUIDs', async () => {
    const response = await request('POST', base, { name: '', template_engine_preset: 'mustache' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['name', 'template_engine_preset']);
    expect((await request('GET', `${base}/12`)).statusCode).toBe(422);
  });

  it('keeps its preset while conditionals build its syntax with the picker; deleting drops its values', async () => {
    const profile = (await request('POST', base, { name: 'Braze', template_engine_preset: 'liquid' })).json();
    const conditional = (
      await request('POST', `/api/v1/workspaces/${workspaceId}/conditionals`, {
        label: 'Tiers',
        branches: [
          { key: 'gold', label: 'Gold' },
          { key: 'other', label: 'Other' },
        ],
        default_value: { closing: 'END', branch_values: { gold: 'IF', other: 'ELSE' } },
        dynamic_content_profile_values: {
          [profile.id]: {
            uses_ui_picker: true,
            ui_picker_state: {
              include_else_branch: true,
              branches: {
                gold: { conditions: [{ attribute: 'vip', type: 'boolean', operator: 'is_true' }] },
              },
            },
          },
        },
      })
    ).json();
    const tag = (
      await request('POST', `/api/v1/workspaces/${workspaceId}/personalization_tags`, {
        label: 'First name',
        default_value: 'there',
        example_value: 'Ada',
        dynamic_content_profile_values: { [profile.id]: brazeFirstName },
      })
    ).json();

    const dynamicContent = await loadDynamicContent(app.services, workspaceId, { profileId: profile.id });
    expect(dynamicContent.conditionals?.[0]?.dynamic_content_profile_syntaxes?.[profile.id]).toEqual({
      closing: '{% endif %}',
      branch_values: { gold: '{% if vip == true %}', other: '{% else %}' },
    });
    expect(dynamicContent.personalizationTags?.[0]?.dynamic_content_profile_values).toEqual({
      [profile.id]: brazeFirstName,
    });
    await expect(loadDynamicContent(app.services, workspaceId, { profileId: 'nope' })).rejects.toThrow(
      'Failed to save',
    );

    const refused = await request('PATCH', `${base}/${profile.id}`, { template_engine_preset: null });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({
      template_engine_preset: ['is needed by conditionals built with the preset picker: Tiers'],
    });

    expect((await request('DELETE', `${base}/${profile.id}`)).statusCode).toBe(204);
    const after = (
      await request('GET', `/api/v1/workspaces/${workspaceId}/conditionals/${conditional.id}`)
    ).json();
    expect(after.dynamic_content_profile_syntaxes).toEqual({});
    const tagAfter = (
      await request('GET', `/api/v1/workspaces/${workspaceId}/personalization_tags/${tag.id}`)
    ).json();
    expect(tagAfter.dynamic_content_profile_values).toEqual({});
  });
});
