import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectors } from '../../db/schema.ts';
import { createSecrets } from '../../security/secrets.ts';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { htmlOutage } from '../../test/fakes/fake-http.ts';
import { type FakeIterable, startFakeIterable } from '../../test/fakes/fake-iterable.ts';
import { type FakeSalesforce, startFakeSalesforce } from '../../test/fakes/fake-salesforce.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

const iterableKey = 'itbl_server_key_0123456789abcdef';
const euKey = 'itbl_eu_key_fedcba9876543210';
const sfmcSecret = 'sfmc-client-secret-ABCDEFGHIJKLMNOP';
const secrets = [iterableKey, euKey, sfmcSecret, 'replacement-key-00000000000'];

describe('connectors', () => {
  let app: TestApp;
  let iterable: FakeIterable;
  let salesforce: FakeSalesforce;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    iterable = await startFakeIterable();
    iterable.addKey(iterableKey, 'us');
    iterable.addKey(euKey, 'eu');
    salesforce = await startFakeSalesforce();
    salesforce.addClient('client-cc', { secret: sfmcSecret });
    salesforce.addClient('client-web', {
      secret: sfmcSecret,
      redirectUris: ['http://localhost:3000/connectors/oauth-callback'],
    });
    app = await buildTestApp({
      config: {
        logLevel: 'trace',
        appUrl: 'http://localhost:3000',
        connectorEndpoints: {
          iterableUs: iterable.urls.us,
          iterableEu: iterable.urls.eu,
          salesforceAuth: salesforce.url,
          privateOrigins: [iterable.urls.us, iterable.urls.eu, salesforce.url],
        },
      },
      logStream: { write: (line) => void logLines.push(line) },
    });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}/connectors`;
  });
  afterAll(async () => {
    await app.close();
    await iterable.close();
    await salesforce.close();
  });

  const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const createIterable = async (
    settings: Record<string, string> = { api_key: iterableKey, region: 'us' },
  ) => {
    const response = await request('POST', base, {
      name: 'Iterable US',
      integration_name: 'iterable',
      settings,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const test = async (id: number) => {
    const response = await request('POST', `${base}/${id}/test`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { ok: boolean; message: string };
  };

  it('lists the integrations with the fields their form asks for', async () => {
    const response = await request('GET', '/api/v1/connector_integrations');
    expect(response.statusCode).toBe(200);
    const [first, second] = response.json();
    expect(first.integration_name).toBe('iterable');
    expect(first.setup_fields.map((field: { name: string }) => field.name)).toEqual(['api_key', 'region']);
    expect(first.setup_fields[0]).toMatchObject({ type: 'password', required: true, secret: true });
    expect(second.integration_name).toBe('salesforce_marketing_cloud');
    expect(second.setup_fields.map((field: { name: string }) => field.name)).toEqual([
      'subdomain',
      'client_id',
      'client_secret',
      'account_id',
      'auth_flow',
    ]);
    expect(second.setup_fields[4].description).toContain('http://localhost:3000/connectors/oauth-callback');
  });

  it('creates, reads, changes and deletes, answering secrets masked and storing them encrypted', async () => {
    const connector = await createIterable();
    expect(connector).toMatchObject({
      name: 'Iterable US',
      integration_name: 'iterable',
      settings: { api_key: '••••cdef', region: 'us' },
      oauth_authorization_url: null,
      workspace_id: organization.workspaceId,
    });
    expect(connector.setup_fields).toHaveLength(2);
    const [row] = await app.services.database.db
      .select()
      .from(connectors)
      .where(eq(connectors.id, connector.id));
    expect(JSON.stringify(row)).not.toContain(iterableKey);
    expect(row?.sealedSecrets).toMatch(/^v1\./);

    const list = await request('GET', `${base}?per=100`);
    expect(list.json().pagination.total).toBeGreaterThanOrEqual(1);
    expect(list.json().results.map((item: { id: number }) => item.id)).toContain(connector.id);

    // The mask sent back and a secret left out both keep the stored key: the test still passes.
    const renamed = await request('PATCH', `${base}/${connector.id}`, {
      name: 'Iterable',
      settings: { api_key: '••••cdef', region: 'us' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Iterable', settings: { api_key: '••••cdef' } });
    expect(await test(connector.id)).toMatchObject({ ok: true });
    await request('PATCH', `${base}/${connector.id}`, { settings: { region: 'us' } });
    expect(await test(connector.id)).toMatchObject({ ok: true });
    expect(iterable.seen.us.at(-1)?.headers['api-key']).toBe(iterableKey);

    // A new key replaces it.
    const replaced = await request('PATCH', `${base}/${connector.id}`, {
      settings: { api_key: 'replacement-key-00000000000' },
    });
    expect(replaced.json().settings.api_key).toBe('••••0000');
    expect(await test(connector.id)).toMatchObject({ ok: false });
    expect(iterable.seen.us.at(-1)?.headers['api-key']).toBe('replacement-key-00000000000');

    expect((await request('DELETE', `${base}/${connector.id}`)).statusCode).toBe(204);
    expect((await request('GET', `${base}/${connector.id}`)).statusCode).toBe(404);
  });

  it('refuses missing, unknown and malformed settings with 422 naming each', async () => {
    const missing = await request('POST', base, {
      name: 'No key',
      integration_name: 'iterable',
      settings: { region: 'mars', colour: 'red', refresh_token: 'made-up' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({
      'settings.api_key': ['is required'],
      'settings.region': ['must be one of us, eu'],
      'settings.colour': ['is not a setting of Iterable'],
      'settings.refresh_token': ['is not a setting of Iterable'],
    });
    const salesforceBad = await request('POST', base, {
      name: 'SFMC',
      integration_name: 'salesforce_marketing_cloud',
      settings: {
        subdomain: 'https://mc123.auth.marketingcloudapis.com/',
        client_id: 'x',
        client_secret: 'y',
        account_id: 'MID 12',
      },
    });
    expect(Object.keys(salesforceBad.json().errors).sort()).toEqual([
      'settings.account_id',
      'settings.subdomain',
    ]);
    expect(
      (await request('POST', base, { name: 'x', integration_name: 'braze', settings: {} })).statusCode,
    ).toBe(422);
    expect(
      (await request('POST', base, { name: 'x', integration_name: 'iterable' })).json().errors,
    ).toHaveProperty('settings');
    const connector = await createIterable();
    const cleared = await request('PATCH', `${base}/${connector.id}`, { settings: { region: '' } });
    expect(cleared.json().errors).toEqual({ 'settings.region': ['is required'] });
    expect(
      (await request('PATCH', `${base}/${connector.id}`, { integration_name: 'iterable' })).statusCode,
    ).toBe(422);
  });

  it('tests Iterable credentials: the right key in its region, a wrong key, the other region, an outage', async () => {
    const us = await createIterable();
    expect(await test(us.id)).toEqual({
      ok: true,
      message: 'Connected: Iterable (US data centre) accepted the credentials.',
    });
    const wrong = await createIterable({ api_key: 'not-a-key-of-any-project', region: 'us' });
    expect((await test(wrong.id)).message).toBe(
      'Iterable refused the API key. Check the key, and that its project is in the US data centre chosen for this connector.',
    );
    // An EU key on the US host is refused: the region must be the project's.
    const euOnUs = await createIterable({ api_key: euKey, region: 'us' });
    expect(await test(euOnUs.id)).toMatchObject({ ok: false });
    const eu = await createIterable({ api_key: euKey, region: 'eu' });
    expect(await test(eu.id)).toMatchObject({ ok: true, message: expect.stringContaining('EU data centre') });
    expect(iterable.seen.eu.at(-1)?.path).toBe('/api/messageTypes');
  });

  it('tests Marketing Cloud server-to-server credentials and reports refusals in plain words', async () => {
    const created = await request('POST', base, {
      name: 'Marketing Cloud',
      integration_name: 'salesforce_marketing_cloud',
      settings: {
        subdomain: 'mc563885gzs27c5t9-63k636tzgm',
        client_id: 'client-cc',
        client_secret: sfmcSecret,
        account_id: '7281698',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const connector = created.json();
    expect(connector.settings).toEqual({
      subdomain: 'mc563885gzs27c5t9-63k636tzgm',
      client_id: 'client-cc',
      client_secret: '••••MNOP',
      account_id: '7281698',
      auth_flow: 'client_credentials',
    });
    expect(connector.oauth_authorization_url).toBeNull();
    expect(await test(connector.id)).toEqual({
      ok: true,
      message:
        'Connected: Marketing Cloud (mc563885gzs27c5t9-63k636tzgm, MID 7281698) accepted the credentials.',
    });
    const token = salesforce.seen.find((seen) => seen.path === '/v2/token');
    expect(JSON.parse(token?.body ?? '{}')).toMatchObject({
      grant_type: 'client_credentials',
      client_id: 'client-cc',
      account_id: '7281698',
    });

    await request('PATCH', `${base}/${connector.id}`, { settings: { client_secret: 'wrong-secret' } });
    expect((await test(connector.id)).message).toContain('Marketing Cloud refused the client id or secret');
    await request('PATCH', `${base}/${connector.id}`, { settings: { client_secret: sfmcSecret } });
    salesforce.force({ ...htmlOutage(503), pathPrefix: '/asset' });
    salesforce.force({ ...htmlOutage(503), pathPrefix: '/asset' });
    salesforce.force({ ...htmlOutage(503), pathPrefix: '/asset' });
    salesforce.force({ ...htmlOutage(503), pathPrefix: '/asset' });
    const outage = await test(connector.id);
    expect(outage).toEqual({
      ok: false,
      message: 'Marketing Cloud had a problem of its own (503: 503 Bad Gateway). Export again later.',
    });
  }, 30_000);

  it('connects Marketing Cloud through the authorization-code flow and keeps the rotated refresh token', async () => {
    const connector = (
      await request('POST', base, {
        name: 'Marketing Cloud (user)',
        integration_name: 'salesforce_marketing_cloud',
        settings: {
          subdomain: 'mc563885gzs27c5t9-63k636tzgm',
          client_id: 'client-web',
          client_secret: sfmcSecret,
          auth_flow: 'authorization_code',
        },
      })
    ).json();
    expect(connector.oauth_authorized_at).toBeNull();
    expect(await test(connector.id)).toMatchObject({
      ok: false,
      message: expect.stringContaining('click Connect'),
    });

    const authorize = new URL(connector.oauth_authorization_url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${salesforce.url}/v2/authorize`);
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      'http://localhost:3000/connectors/oauth-callback',
    );
    expect(authorize.searchParams.get('scope')).toContain('saved_content_write');
    // The browser follows it; Marketing Cloud sends it back to the web app with a code and the state.
    const redirect = await fetch(authorize, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const back = new URL(redirect.headers.get('location') ?? '');
    const code = back.searchParams.get('code') ?? '';
    const state = back.searchParams.get('state') ?? '';
    expect(state).toBe(authorize.searchParams.get('state'));

    // Another organization cannot use the state; a made-up state is refused.
    const outsider = await createTestOrganization(app);
    const foreign = await app.inject({
      method: 'POST',
      url: '/api/v1/connectors/oauth_callback',
      headers: await apiKeyHeadersFor(app, outsider, outsider.admin),
      payload: { code, state },
    });
    expect(foreign.statusCode).toBe(422);
    const madeUp = await request('POST', '/api/v1/connectors/oauth_callback', {
      code,
      state: 'v1.abc.def.ghi.jkl',
    });
    expect(madeUp.json().errors.state[0]).toContain('click Connect on the connector again');

    const completed = await request('POST', '/api/v1/connectors/oauth_callback', { code, state });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json().oauth_authorized_at).not.toBeNull();
    expect(completed.json().settings).not.toHaveProperty('refresh_token');
    const firstRefresh = salesforce.liveRefreshTokens().at(-1);
    // The code works once.
    const again = await request('POST', '/api/v1/connectors/oauth_callback', { code, state });
    expect(again.json().errors.code[0]).toContain('no longer accepts');

    expect(await test(connector.id)).toMatchObject({ ok: true });
    // The refresh rotated the token: the first one is spent and the new one is what is stored.
    const secondRefresh = salesforce.liveRefreshTokens().at(-1);
    expect(secondRefresh).not.toBe(firstRefresh);
    expect(salesforce.liveRefreshTokens()).not.toContain(firstRefresh);
    salesforce.expireTokens();
    expect(await test(connector.id)).toMatchObject({ ok: true });
    expect(salesforce.liveRefreshTokens()).not.toContain(secondRefresh);

    // Another client id is another account: the sign-in is forgotten.
    const changed = await request('PATCH', `${base}/${connector.id}`, {
      settings: { client_id: 'client-cc' },
    });
    expect(changed.json().oauth_authorized_at).toBeNull();
    expect(await test(connector.id)).toMatchObject({
      ok: false,
      message: expect.stringContaining('click Connect'),
    });
  });

  it('refuses roles without the connector permissions and hides other organizations’ connectors', async () => {
    const connector = await createIterable();
    const viewer = await signInAs(app, await createTestUser(app, organization, { role: 'Viewer' }));
    expect((await app.inject({ method: 'GET', url: base, headers: viewer })).statusCode).toBe(200);
    const refused = [
      app.inject({ method: 'POST', url: base, headers: viewer, payload: {} }),
      app.inject({ method: 'PATCH', url: `${base}/${connector.id}`, headers: viewer, payload: {} }),
      app.inject({ method: 'DELETE', url: `${base}/${connector.id}`, headers: viewer }),
      app.inject({ method: 'POST', url: `${base}/${connector.id}/test`, headers: viewer }),
    ];
    for (const response of await Promise.all(refused)) expect(response.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: base })).statusCode).toBe(401);

    const outsider = await createTestOrganization(app);
    const foreign = await apiKeyHeadersFor(app, outsider, outsider.admin);
    const theirs = `/api/v1/workspaces/${outsider.workspaceId}/connectors`;
    expect(
      (await app.inject({ method: 'GET', url: `${theirs}/${connector.id}`, headers: foreign })).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'GET', url: `${base}/${connector.id}`, headers: foreign })).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url: `${theirs}/${connector.id}/test`, headers: foreign }))
        .statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'GET', url: theirs, headers: foreign })).json().results).toEqual([]);
  });

  it('still shows a connector whose secrets no longer open (the secrets key changed), and takes new ones', async () => {
    const connector = await createIterable();
    await app.services.database.db
      .update(connectors)
      .set({ sealedSecrets: createSecrets(randomBytes(32)).seal('{"api_key":"lost"}', 'connector-secrets') })
      .where(eq(connectors.id, connector.id));
    const shown = await request('GET', `${base}/${connector.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().settings).toEqual({ region: 'us' });
    expect((await test(connector.id)).message).toContain('cannot be read with this server’s secrets key');
    await request('PATCH', `${base}/${connector.id}`, { settings: { api_key: iterableKey } });
    expect(await test(connector.id)).toMatchObject({ ok: true });
  });

  it('never writes a secret into a log line', () => {
    expect(logLines.length).toBeGreaterThan(20);
    const log = logLines.join('');
    expect(log).toContain('connector test failed');
    for (const secret of secrets) expect(log).not.toContain(secret);
    for (const token of salesforce.liveRefreshTokens()) expect(log).not.toContain(token);
  });
});
