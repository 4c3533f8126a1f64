import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  type TestOrganization,
} from '../test/factories.ts';
import { type FakeIterable, startFakeIterable } from '../test/fakes/fake-iterable.ts';
import { type FakeMcpServer, startFakeMcpServer } from '../test/fakes/fake-mcp-server.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../test/fakes/fake-openai.ts';
import { buildTestApp, type TestApp, testConfig } from '../test/harness.ts';
import { originOf, sameDestination } from './secret-destination.ts';

/**
 * A stored secret follows no moved address: for each kind of resource, an Admin stores a secret
 * against server A, someone who may change the resource moves it to server B (both started here
 * on 127.0.0.1, let through the SSRF guard by the allowPrivateNetwork config), and the check or
 * run that follows brings B nothing of the secret; given again in the same change, it works at B.
 */

interface Captured {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An HTTP server that answers `{"ok":true}` and keeps every request. */
async function startCaptureServer(): Promise<{ origin: string; seen: Captured[]; close(): Promise<void> }> {
  const seen: Captured[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      response.setHeader('content-type', 'application/json');
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('origins', () => {
  it('compare scheme, host and port, not the path', () => {
    expect(sameDestination('https://a.example/x?q=1', 'https://a.example:443/y')).toBe(true);
    expect(sameDestination('https://a.example/x', 'http://a.example/x')).toBe(false);
    expect(sameDestination('https://a.example/x', 'https://a.example:8443/x')).toBe(false);
    expect(sameDestination('https://a.example/x', 'https://b.example/x')).toBe(false);
    expect(sameDestination('not a url', 'not a url')).toBe(false);
    expect(originOf('https://A.example/{{ parameters.id }}')).toBe('https://a.example');
  });
});

describe('a stored secret follows no moved address', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let developer: Record<string, string>;
  let captureA: Awaited<ReturnType<typeof startCaptureServer>>;
  let captureB: Awaited<ReturnType<typeof startCaptureServer>>;
  let mcpA: FakeMcpServer;
  let mcpB: FakeMcpServer;
  let iterable: FakeIterable;
  let openAiA: FakeOpenAi;
  let openAiB: FakeOpenAi;
  let workspace: string;

  const secret = 'Bearer sk_live_admins_secret_7f3a9c0d';
  const newSecret = 'Bearer sk_live_developers_own_11aa22';

  beforeAll(async () => {
    [captureA, captureB, mcpA, mcpB, iterable, openAiA, openAiB] = await Promise.all([
      startCaptureServer(),
      startCaptureServer(),
      startFakeMcpServer({ requiredHeaders: { authorization: secret } }),
      startFakeMcpServer(),
      startFakeIterable(),
      startFakeOpenAi(),
      startFakeOpenAi(),
    ]);
    app = await buildTestApp({
      config: {
        outboundFetch: { ...testConfig().outboundFetch, allowPrivateNetwork: true },
        connectorEndpoints: {
          iterableUs: iterable.urls.us,
          iterableEu: iterable.urls.eu,
          salesforceAuth: captureA.origin,
          privateOrigins: [iterable.urls.us, iterable.urls.eu, captureA.origin],
        },
      },
    });
    organization = await createTestOrganization(app);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
    developer = await apiKeyHeadersFor(
      app,
      organization,
      await createTestUser(app, organization, { role: 'Developer' }),
    );
    workspace = `/api/v1/workspaces/${organization.workspaceId}`;
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await Promise.all(
      [captureA, captureB, mcpA, mcpB, iterable, openAiA, openAiB].map((fake) => fake.close()),
    );
  });

  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const everything = (requests: unknown[]) => JSON.stringify(requests);

  describe('feeds', () => {
    const createFeed = async (url: string) => {
      const response = await call('POST', `${workspace}/feeds`, admin, {
        name: `Products ${Math.random()}`,
        url,
        request_method: 'GET',
        parameters: [],
        headers: [{ key: 'Authorization', value: secret }],
        fields: [],
      });
      expect(response.statusCode).toBe(200);
      return response.json() as { id: number; headers: { key: string; value: string }[] };
    };
    const run = (id: number) => call('POST', `${workspace}/feeds/${id}/run`, developer, { parameters: {} });

    it('moved to another origin without the header: it is dropped, said so, and never reaches B', async () => {
      const feed = await createFeed(`${captureA.origin}/products`);
      expect((await run(feed.id)).json().error).toBeNull();
      expect(captureA.seen.at(-1)?.headers.authorization).toBe(secret);

      const moved = await call('PATCH', `${workspace}/feeds/${feed.id}`, developer, {
        url: `${captureB.origin}/collect`,
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ headers: [], secrets_cleared: ['headers.Authorization'] });
      const before = captureB.seen.length;
      expect((await run(feed.id)).json().status).toBe(200);
      expect(captureB.seen.length).toBe(before + 1);
      expect(captureB.seen.at(-1)?.headers.authorization).toBeUndefined();
      expect(everything(captureB.seen)).not.toContain('sk_live_admins_secret');
    });

    it('sending back the masked value with the move does not carry the secret either', async () => {
      const feed = await createFeed(`${captureA.origin}/products`);
      const moved = await call('PATCH', `${workspace}/feeds/${feed.id}`, developer, {
        url: `${captureB.origin}/collect`,
        headers: feed.headers,
      });
      expect(moved.json().secrets_cleared).toEqual(['headers.Authorization']);
      await run(feed.id);
      expect(everything(captureB.seen)).not.toContain('sk_live_admins_secret');
    });

    it('keeps the secret on the same origin, and takes a value given again with the move', async () => {
      const feed = await createFeed(`${captureA.origin}/products`);
      const samePlace = await call('PATCH', `${workspace}/feeds/${feed.id}`, developer, {
        url: `${captureA.origin}/other-path?x=1`,
      });
      expect(samePlace.json().secrets_cleared).toEqual([]);
      await run(feed.id);
      expect(captureA.seen.at(-1)).toMatchObject({
        url: '/other-path?x=1',
        headers: { authorization: secret },
      });

      const given = await call('PATCH', `${workspace}/feeds/${feed.id}`, developer, {
        url: `${captureB.origin}/collect`,
        headers: [{ key: 'Authorization', value: newSecret }],
      });
      expect(given.json().secrets_cleared).toEqual([]);
      await run(feed.id);
      expect(captureB.seen.at(-1)?.headers.authorization).toBe(newSecret);
    });
  });

  describe('MCP servers', () => {
    const check = (id: number) =>
      call('POST', `${workspace}/mcp_servers/${id}/perform_healthcheck`, developer);
    const createServer = async () => {
      const created = await call('POST', `${workspace}/mcp_servers`, admin, {
        name: `Briefs ${Math.random()}`,
        url: mcpA.url,
        headers: { Authorization: secret },
      });
      expect(created.statusCode).toBe(200);
      return created.json() as { id: number; headers: Record<string, string> };
    };

    it('moved without its headers: they are dropped, said so, and the health check brings B none', async () => {
      const server = await createServer();
      expect((await check(server.id)).json().healthcheck_status).toBe('healthy');

      const moved = await call('PATCH', `${workspace}/mcp_servers/${server.id}`, developer, {
        url: mcpB.url,
        headers: server.headers,
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ headers: {}, secrets_cleared: ['headers.Authorization'] });
      const before = mcpB.seen.length;
      expect((await check(server.id)).json().healthcheck_status).toBe('healthy');
      expect(mcpB.seen.length).toBeGreaterThan(before);
      expect(mcpB.seen.every((request) => request.headers.authorization === undefined)).toBe(true);
      expect(everything(mcpB.seen)).not.toContain('sk_live_admins_secret');
    });

    it('given again with the move, the header works at the new address', async () => {
      mcpB.requiredHeaders = { authorization: newSecret };
      try {
        const server = await createServer();
        const moved = await call('PATCH', `${workspace}/mcp_servers/${server.id}`, developer, {
          url: mcpB.url,
          headers: { Authorization: newSecret },
        });
        expect(moved.json().secrets_cleared).toEqual([]);
        expect((await check(server.id)).json()).toMatchObject({ healthcheck_status: 'healthy' });
        expect(mcpB.seen.at(-1)?.headers.authorization).toBe(newSecret);
      } finally {
        mcpB.requiredHeaders = {};
      }
    });
  });

  describe('connectors', () => {
    const usKey = 'iterable-us-key-0123456789abcdef';
    const euKey = 'iterable-eu-key-fedcba9876543210';
    const test = async (id: number) =>
      (await call('POST', `${workspace}/connectors/${id}/test`, developer)).json();

    it('moved to the other data centre without the key: it is dropped, said so, and B gets no key', async () => {
      iterable.addKey(usKey, 'us');
      iterable.addKey(euKey, 'eu');
      const connector = (
        await call('POST', `${workspace}/connectors`, admin, {
          name: `Iterable ${Math.random()}`,
          integration_name: 'iterable',
          settings: { api_key: usKey, region: 'us' },
        })
      ).json();
      expect((await test(connector.id)).ok).toBe(true);

      const moved = await call('PATCH', `${workspace}/connectors/${connector.id}`, developer, {
        settings: { region: 'eu', api_key: connector.settings.api_key },
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().secrets_cleared).toEqual(['settings.api_key']);
      expect(moved.json().settings).toEqual({ region: 'eu' });
      const before = iterable.seen.eu.length;
      expect(await test(connector.id)).toEqual({
        ok: false,
        message:
          'The connector has no api key: it was removed when the connector moved to another data centre. Enter it again.',
      });
      expect(iterable.seen.eu.length).toBe(before);
      expect(everything(iterable.seen.eu)).not.toContain(usKey);

      const given = await call('PATCH', `${workspace}/connectors/${connector.id}`, developer, {
        settings: { api_key: euKey },
      });
      expect(given.json().secrets_cleared).toEqual([]);
      expect((await test(connector.id)).ok).toBe(true);
      expect(iterable.seen.eu.at(-1)?.headers['api-key']).toBe(euKey);

      const movedWithKey = await call('PATCH', `${workspace}/connectors/${connector.id}`, developer, {
        settings: { region: 'us', api_key: usKey },
      });
      expect(movedWithKey.json().secrets_cleared).toEqual([]);
      expect((await test(connector.id)).ok).toBe(true);
      expect(iterable.seen.us.at(-1)?.headers['api-key']).toBe(usKey);
    });

    it('a Marketing Cloud connector moved to another subdomain drops its client secret', async () => {
      const connector = (
        await call('POST', `${workspace}/connectors`, admin, {
          name: `Marketing Cloud ${Math.random()}`,
          integration_name: 'salesforce_marketing_cloud',
          settings: { subdomain: 'tenant-a', client_id: 'client-cc', client_secret: 'sfmc-secret-4455' },
        })
      ).json();
      const moved = await call('PATCH', `${workspace}/connectors/${connector.id}`, developer, {
        settings: { subdomain: 'tenant-b' },
      });
      expect(moved.json().secrets_cleared).toEqual(['settings.client_secret']);
      const before = captureA.seen.length;
      expect((await test(connector.id)).ok).toBe(false);
      expect(captureA.seen.length).toBe(before);

      const given = await call('PATCH', `${workspace}/connectors/${connector.id}`, developer, {
        settings: { subdomain: 'tenant-b', client_secret: 'sfmc-secret-6677' },
      });
      const renamed = await call('PATCH', `${workspace}/connectors/${connector.id}`, developer, {
        name: 'Renamed',
        settings: { subdomain: 'tenant-b' },
      });
      expect([given.json().secrets_cleared, renamed.json().secrets_cleared]).toEqual([[], []]);
      expect(renamed.json().settings.client_secret).toMatch(/6677$/);
    });
  });

  describe('AI settings', () => {
    const test = async () => (await call('POST', '/api/v1/ai_settings/test', admin)).json();

    it('a base URL moved without the key: it is dropped, said so, and B gets no key', async () => {
      const key = 'sk-org-key-0a1b2c3d4e5f';
      const stored = await call('PATCH', '/api/v1/ai_settings', admin, {
        provider: 'openai_compatible',
        base_url: openAiA.baseUrl,
        model: 'test-model',
        api_key: key,
      });
      expect(stored.statusCode).toBe(200);
      expect((await test()).ok).toBe(true);
      expect(openAiA.seen.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);

      const moved = await call('PATCH', '/api/v1/ai_settings', admin, {
        base_url: openAiB.baseUrl,
        api_key: stored.json().api_key,
      });
      expect(moved.json()).toMatchObject({ api_key: null, secrets_cleared: ['api_key'] });
      expect((await test()).ok).toBe(true);
      expect(openAiB.seen.length).toBeGreaterThan(0);
      expect(everything(openAiB.seen)).not.toContain(key);

      const keyAtB = 'sk-org-key-given-again-99';
      const given = await call('PATCH', '/api/v1/ai_settings', admin, { api_key: keyAtB });
      expect(given.json().secrets_cleared).toEqual([]);
      const samePlace = await call('PATCH', '/api/v1/ai_settings', admin, { base_url: `${openAiB.url}/v1/` });
      expect(samePlace.json()).toMatchObject({ secrets_cleared: [], api_key: expect.stringMatching(/-99$/) });
      const movedWithKey = await call('PATCH', '/api/v1/ai_settings', admin, {
        base_url: openAiA.baseUrl,
        api_key: keyAtB,
      });
      expect(movedWithKey.json().secrets_cleared).toEqual([]);
      expect((await test()).ok).toBe(true);
      expect(openAiA.seen.at(-1)?.headers.authorization).toBe(`Bearer ${keyAtB}`);
    });
  });
});
