import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestEmail,
  createTestOrganization,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('personalization tags', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;
  let profileId: string;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}/personalization_tags`;
    profileId = (
      await app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${organization.workspaceId}/dynamic_content_profiles`,
        headers: admin,
        payload: { name: 'Iterable', template_engine_preset: 'handlebars' },
      })
    ).json().id;
  });
  afterAll(() => app.close());

  const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const firstName = () => ({
    label: 'First name',
    default_value: 'there',
    example_value: 'Ada',
    dynamic_content_profile_values: { [profileId]: '{{defaultIfEmpty firstName "there"}}' },
  });

  it('creates, reads, updates and deletes, answering the tag’s token', async () => {
    const created = await request('POST', base, firstName());
    expect(created.statusCode).toBe(200);
    const tag = created.json();
    expect(tag).toMatchObject({
      ...firstName(),
      token: `{tag:${tag.id}}`,
      organization_id: organization.organizationId,
    });
    const updated = await request('PATCH', `${base}/${tag.id}`, {
      example_value: 'Grace',
      dynamic_content_profile_values: {},
    });
    expect(updated.json()).toMatchObject({
      example_value: 'Grace',
      default_value: 'there',
      dynamic_content_profile_values: {},
    });
    expect((await request('GET', base)).json().results.map((t: { id: number }) => t.id)).toContain(tag.id);
    expect((await request('DELETE', `${base}/${tag.id}`)).statusCode).toBe(204);
    expect((await request('GET', `${base}/${tag.id}`)).statusCode).toBe(404);
  });

  it('requires label, default and example values, and known profiles', async () => {
    const missing = await request('POST', base, { label: 'X' });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['default_value', 'example_value']);
    const unknownProfile = await request('POST', base, {
      ...firstName(),
      dynamic_content_profile_values: { 'no-such-profile': '{{x}}' },
    });
    expect(unknownProfile.json().errors).toEqual({
      'dynamic_content_profile_values.no-such-profile': [
        'is not a dynamic content profile of this workspace',
      ],
    });
    const extra = await request('POST', base, { ...firstName(), color: 'red' });
    expect(extra.statusCode).toBe(422);
  });

  it('cannot be deleted while emails hold its token, and the 422 names them', async () => {
    const tag = (await request('POST', base, firstName())).json();
    const other = (await request('POST', base, { ...firstName(), label: 'City' })).json();
    const content = (subject: string) => ({
      subject: { branch_content: { null_branch: { 'en-US': subject } } },
      preheader: { branch_content: { null_branch: { 'en-US': '' } } },
      container_component_instance: { id: 'c', component_id: 1, field_values: {} },
      component_instances: [],
    });
    await createTestEmail(app, organization, { name: 'Newsletter', content: content(`Hi ${tag.token}!`) });
    // {tag:1} must not match {tag:12}: the token is matched whole, braces included.
    await createTestEmail(app, organization, { name: 'Unrelated', content: content(`{tag:${tag.id}0}`) });
    const refused = await request('DELETE', `${base}/${tag.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'validation_failed',
      message: 'The personalization tag First name is used by emails: “Newsletter”',
      errors: { id: ['is used by emails: “Newsletter”'] },
    });
    expect((await request('DELETE', `${base}/${other.id}`)).statusCode).toBe(204);
  });
});
