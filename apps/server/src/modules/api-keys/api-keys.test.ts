import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../db/schema.ts';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('API keys', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
  });
  afterAll(() => app.close());

  const createKey = async (headers: Record<string, string>, name = 'CI exports') =>
    app.inject({ method: 'POST', url: '/api/v1/api_keys', headers, payload: { name } });

  it('shows the secret once, stores only a digest, and works as a Bearer token', async () => {
    const created = await createKey(admin);
    expect(created.statusCode).toBe(200);
    const { key, prefix, id } = created.json();
    expect(key).toMatch(/^ls_[\w-]{43}$/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(created.json().creator).toEqual({
      id: organization.admin.id,
      first_name: 'Ada',
      last_name: 'Admin',
      profile_image_url: null,
    });

    const [stored] = await app.services.database.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(JSON.stringify(stored)).not.toContain(key);

    const me = await app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.id).toBe(organization.admin.id);

    const listed = (await app.inject({ method: 'GET', url: '/api/v1/api_keys', headers: admin })).json();
    expect(listed.results[0]).toMatchObject({ id, name: 'CI exports', prefix });
    expect(listed.results[0].last_used_at).toMatch(/Z$/);
    expect(JSON.stringify(listed)).not.toContain(key);
  });

  it('needs no CSRF origin (no cookie), and stops working the moment it is revoked', async () => {
    const { key, id } = (await createKey(admin, 'temporary')).json();
    const bearer = { authorization: `Bearer ${key}`, origin: 'https://elsewhere.example' };
    const write = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: bearer,
      payload: { name: 'By key', auto_join: false },
    });
    expect(write.statusCode).toBe(201);

    expect(
      (await app.inject({ method: 'DELETE', url: `/api/v1/api_keys/${id}`, headers: admin })).statusCode,
    ).toBe(204);
    const after = await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      code: 'authentication_required',
      message: 'This API key is not valid: it may have been revoked',
    });
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/v1/api_keys/${id}`, headers: admin })).statusCode,
    ).toBe(404);
  });

  it('acts with the creator’s current role, and dies (revoked) with a removed creator', async () => {
    const developer = await createTestUser(app, organization, { role: 'Developer' });
    const { key, id } = (await createKey(await signInAs(app, developer))).json();
    const bearer = { authorization: `Bearer ${key}` };
    const createAnother = () =>
      app.inject({ method: 'POST', url: '/api/v1/api_keys', headers: bearer, payload: { name: 'more' } });
    expect((await createAnother()).statusCode).toBe(200);

    await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${developer.id}`,
      headers: admin,
      payload: { role_id: organization.roleIds.Viewer },
    });
    const me = await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer });
    expect(me.json().permissions).toEqual(['email_commenting']);
    const demoted = await createAnother();
    expect(demoted.statusCode).toBe(403);
    expect(demoted.json()).toEqual({
      code: 'permission_denied',
      message: 'You need the manage_api_keys permission to do this',
    });
    // Still their own keys: they may see them and revoke them.
    const own = (await app.inject({ method: 'GET', url: '/api/v1/api_keys', headers: bearer })).json();
    expect(own.results.map((listed: { creator: { id: number } }) => listed.creator.id)).toEqual([
      developer.id,
      developer.id,
    ]);

    await app.inject({ method: 'DELETE', url: `/api/v1/users/${developer.id}`, headers: admin });
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer })).statusCode).toBe(401);
    const [stored] = await app.services.database.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(stored?.revokedAt).not.toBeNull();
    const adminList = (
      await app.inject({ method: 'GET', url: '/api/v1/api_keys?per=100', headers: admin })
    ).json();
    expect(adminList.results.map((listed: { id: number }) => listed.id)).not.toContain(id);
  });

  it('shows and revokes only your own keys and those of people whose every key you hold', async () => {
    const other = await createTestOrganization(app);
    const otherAdmin = await apiKeyHeadersFor(app, other, other.admin);
    const developer = await createTestUser(app, other, { role: 'Developer' });
    const developerHeaders = await apiKeyHeadersFor(app, other, developer);
    const editor = await createTestUser(app, other, { role: 'Editor' });
    const editorHeaders = await apiKeyHeadersFor(app, other, editor);
    const keyOf = async (headers: Record<string, string>, name: string) =>
      (await app.inject({ method: 'POST', url: '/api/v1/api_keys', headers, payload: { name } })).json().id;
    const adminKey = await keyOf(otherAdmin, 'Admin integration');
    const developerKey = await keyOf(developerHeaders, 'Developer CI');
    // The editor's key dates from when they could make one.
    const [editorKey] = await app.services.database.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.userId, editor.id));
    const listed = async (headers: Record<string, string>) =>
      (await app.inject({ method: 'GET', url: '/api/v1/api_keys?per=100', headers })).json();

    const byDeveloper = await listed(developerHeaders);
    const developerSees = byDeveloper.results.map((key: { creator: { id: number } }) => key.creator.id);
    expect(new Set(developerSees)).toEqual(new Set([developer.id, editor.id]));
    expect(byDeveloper.pagination.total).toBe(developerSees.length);
    expect(JSON.stringify(byDeveloper)).not.toContain('Admin integration');
    const byAdmin = await listed(otherAdmin);
    expect(new Set(byAdmin.results.map((key: { creator: { id: number } }) => key.creator.id))).toEqual(
      new Set([other.admin.id, developer.id, editor.id]),
    );
    const byEditor = await listed(editorHeaders);
    expect(byEditor.results.map((key: { id: number }) => key.id)).toEqual([editorKey?.id]);

    const revoke = (headers: Record<string, string>, id: number) =>
      app.inject({ method: 'DELETE', url: `/api/v1/api_keys/${id}`, headers });
    const adminsKey = await revoke(developerHeaders, adminKey);
    expect(adminsKey.statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: otherAdmin })).statusCode).toBe(
      200,
    );
    expect((await revoke(editorHeaders, developerKey)).statusCode).toBe(404);
    expect((await revoke(developerHeaders, editorKey?.id ?? 0)).statusCode).toBe(204);
    expect((await revoke(developerHeaders, developerKey)).statusCode).toBe(204);
    expect((await revoke(otherAdmin, adminKey)).statusCode).toBe(204);
  });

  it('refuses a made-up key', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: 'Bearer ls_made_up' },
    });
    expect(response.statusCode).toBe(401);
  });
});
