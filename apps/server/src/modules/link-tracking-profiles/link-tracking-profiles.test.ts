import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestEmail,
  createTestOrganization,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('link tracking profiles', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}/link_tracking_profiles`;
  });
  afterAll(() => app.close());

  const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const parameters = [
    { type: 'fixed_value', parameter: 'utm_source', value: 'letterset' },
    { type: 'editor_field_value', parameter: 'utm_content' },
    { type: 'editor_global_field_value', parameter: 'utm_campaign' },
  ];

  it('creates, reads, updates and deletes', async () => {
    const created = await request('POST', base, { name: 'UTM', parameters });
    expect(created.statusCode).toBe(200);
    const profile = created.json();
    expect(profile).toMatchObject({ name: 'UTM', parameters, custom_template: null });
    const wrapped = await request('PATCH', `${base}/${profile.id}`, {
      custom_template: 'https://click.example.com/?to={{ url | url_encode }}&{{ query }}',
    });
    expect(wrapped.json().custom_template).toBe(
      'https://click.example.com/?to={{ url | url_encode }}&{{ query }}',
    );
    expect(
      (await request('PATCH', `${base}/${profile.id}`, { custom_template: '' })).json().custom_template,
    ).toBeNull();
    expect((await request('GET', `${base}/${profile.id}`)).json().name).toBe('UTM');
    expect((await request('DELETE', `${base}/${profile.id}`)).statusCode).toBe(204);
    expect((await request('GET', `${base}/${profile.id}`)).statusCode).toBe(404);
  });

  it('refuses unknown parameter types, missing values, duplicate names and broken templates', async () => {
    const wrongType = await request('POST', base, {
      name: 'Bad',
      parameters: [{ type: 'cookie', parameter: 'x' }],
    });
    expect(wrongType.statusCode).toBe(422);
    expect(
      (await request('POST', base, { name: 'Bad', parameters: [{ type: 'fixed_value', parameter: 'a' }] }))
        .statusCode,
    ).toBe(422);
    const duplicate = await request('POST', base, {
      name: 'Bad',
      parameters: [parameters[0], { type: 'editor_field_value', parameter: 'utm_source' }],
      custom_template: '{{ url | no_such_filter }}',
    });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors['parameters.1.parameter']).toEqual([
      'is already a parameter of this profile',
    ]);
    expect(duplicate.json().errors.custom_template[0]).toContain('no_such_filter');
    expect((await request('POST', base, { parameters })).json().errors).toHaveProperty('name');
  });

  it('cannot be deleted while emails use it, and the 422 names them', async () => {
    const profile = (await request('POST', base, { name: 'Used', parameters })).json();
    await createTestEmail(app, organization, {
      name: 'Launch',
      content: {},
      linkTrackingProfileId: profile.id,
    });
    const refused = await request('DELETE', `${base}/${profile.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('The link tracking profile Used is used by emails: “Launch”');
  });
});
