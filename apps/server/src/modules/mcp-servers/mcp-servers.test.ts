import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServers } from '../../db/schema.ts';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { type FakeMcpServer, startFakeMcpServer } from '../../test/fakes/fake-mcp-server.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

const apiKey = 'brief-api-key-0123456789abcdef';
const allowPrivate = { outboundFetch: { allowPrivateNetwork: true, timeoutMs: 5000, maxBytes: 1024 * 1024 } };

describe('MCP servers (AI connectors)', () => {
  let app: TestApp;
  let fake: FakeMcpServer;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let viewer: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    fake = await startFakeMcpServer({ requiredHeaders: { 'x-api-key': apiKey } });
    app = await buildTestApp({ config: allowPrivate });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    viewer = await signInAs(app, await createTestUser(app, organization, { role: 'Viewer' }));
    base = `/api/v1/workspaces/${organization.workspaceId}`;
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  const create = (payload: object, headers = admin) =>
    app.inject({ method: 'POST', url: `${base}/mcp_servers`, headers, payload });
  const check = (id: number, headers = admin) =>
    app.inject({ method: 'POST', url: `${base}/mcp_servers/${id}/perform_healthcheck`, headers });

  it('creates a server pending, its header values masked and stored encrypted', async () => {
    const response = await create({ name: 'Briefs', url: fake.url, headers: { 'X-Api-Key': apiKey } });
    expect(response.statusCode, response.body).toBe(200);
    const server = response.json();
    expect(server).toMatchObject({
      name: 'Briefs',
      url: fake.url,
      healthcheck_status: 'pending',
      healthcheck_error: null,
      headers: { 'X-Api-Key': '••••cdef' },
      tools: [],
      logo_url: null,
      oauth: false,
      start_oauth_flow_url: null,
    });
    const [row] = await app.services.database.db
      .select()
      .from(mcpServers)
      .where(eq(mcpServers.id, server.id));
    expect(row?.sealedHeaders).not.toContain(apiKey);
    expect(
      JSON.stringify(await app.inject({ method: 'GET', url: `${base}/mcp_servers`, headers: admin })),
    ).not.toContain(apiKey);
  });

  it('refuses URLs that are not http(s), and reserved or empty headers, with 422s', async () => {
    for (const [url, message] of [
      ['not a url', 'is not a valid URL'],
      ['ftp://example.com/mcp', 'must be an http or https URL'],
      ['https://user:secret@example.com/mcp', 'must not contain a user name or password: use headers'],
    ]) {
      const response = await create({ name: 'Bad', url });
      expect(response.statusCode, url).toBe(422);
      expect(response.json().errors).toEqual({ url: [message] });
    }
    const headers = await create({
      name: 'Bad',
      url: 'https://example.com/mcp',
      headers: { 'Content-Type': 'text/plain', 'X-Empty': ' ' },
    });
    expect(headers.statusCode).toBe(422);
    expect(headers.json().errors).toEqual({
      'headers.Content-Type': ['is set by Letterset itself'],
      'headers.X-Empty': ['needs a value'],
    });
    const badName = await create({
      name: 'Bad',
      url: 'https://example.com/mcp',
      headers: { 'Bad Name': 'x' },
    });
    expect(badName.statusCode).toBe(422);
  });

  it('refuses private addresses unless ALLOW_PRIVATE_NETWORK_FETCH is set: at save, and at each connection', async () => {
    const saved = (await create({ name: 'Local', url: fake.url, headers: { 'X-Api-Key': apiKey } })).json();
    app.services.config.outboundFetch.allowPrivateNetwork = false;
    try {
      for (const url of [
        'http://127.0.0.1:8080/mcp',
        'http://10.1.2.3/mcp',
        'http://[::1]/mcp',
        'http://localhost/mcp',
      ]) {
        const response = await create({ name: 'Internal', url });
        expect(response.statusCode, url).toBe(422);
        expect(response.json().errors.url[0]).toMatch(
          /private or loopback address.*ALLOW_PRIVATE_NETWORK_FETCH/,
        );
      }
      // A public host name is accepted; where it resolves is checked at each connection.
      expect((await create({ name: 'Public', url: 'https://mcp.example.com/mcp' })).statusCode).toBe(200);
      // Saved while the server allowed it: the guard refuses the connection now.
      fake.seen.length = 0;
      const refused = (await check(saved.id)).json();
      expect(refused.healthcheck_status).toBe('unhealthy');
      expect(refused.healthcheck_error).toMatch(/127\.0\.0\.1 is a private, loopback or link-local address/);
      expect(fake.seen).toEqual([]);
    } finally {
      app.services.config.outboundFetch.allowPrivateNetwork = true;
    }
  });

  it('checks health with the headers and syncs the tools: new ones disabled, gone ones deleted', async () => {
    const server = (await create({ name: 'Shop', url: fake.url, headers: { 'X-Api-Key': apiKey } })).json();
    fake.seen.length = 0;
    const checked = await check(server.id);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({
      healthcheck_status: 'healthy',
      healthcheck_error: null,
      oauth: false,
    });
    expect(checked.json().healthchecked_at).toEqual(expect.any(String));
    expect(checked.json().tools).toEqual([
      {
        id: expect.any(Number),
        name: 'get_brief',
        description: 'Reads a campaign brief',
        enabled: false,
        created_at: expect.any(String),
      },
      {
        id: expect.any(Number),
        name: 'list_products',
        description: 'Lists the products of the shop',
        enabled: false,
        created_at: expect.any(String),
      },
    ]);
    // The header was really sent, on every request.
    expect(fake.seen.length).toBeGreaterThan(0);
    expect(fake.seen.every((request) => request.headers['x-api-key'] === apiKey)).toBe(true);
    expect(fake.seen.flatMap((request) => request.rpcMethods)).toContain('tools/list');

    const [getBrief] = checked.json().tools;
    const enabled = await app.inject({
      method: 'PATCH',
      url: `${base}/mcp_servers/${server.id}/mcp_server_tools/${getBrief.id}`,
      headers: admin,
      payload: { enabled: true },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json().tools[0]).toMatchObject({ name: 'get_brief', enabled: true });

    // The server changes: a tool goes, one comes, one is described anew.
    const original = [...fake.tools];
    fake.tools = [
      { name: 'get_brief', description: 'Reads a brief from Notion', arguments: ['campaign'] },
      { name: 'search_assets', description: 'Searches the asset library', arguments: ['query'] },
    ];
    try {
      const again = (await check(server.id)).json();
      expect(
        again.tools.map((tool: { name: string; enabled: boolean; description: string }) => [
          tool.name,
          tool.enabled,
          tool.description,
        ]),
      ).toEqual([
        ['get_brief', true, 'Reads a brief from Notion'],
        ['search_assets', false, 'Searches the asset library'],
      ]);
      expect(again.tools[0].id).toBe(getBrief.id);
    } finally {
      fake.tools = original;
    }
  });

  it('keeps a masked header value on change, removes left-out headers, and uses the new values', async () => {
    const server = (
      await create({ name: 'Keys', url: fake.url, headers: { 'X-Api-Key': apiKey, 'X-Team': 'growth' } })
    ).json();
    const changed = await app.inject({
      method: 'PATCH',
      url: `${base}/mcp_servers/${server.id}`,
      headers: admin,
      payload: { name: 'Keys (renamed)', headers: { 'X-Api-Key': server.headers['X-Api-Key'] } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Keys (renamed)', headers: { 'X-Api-Key': '••••cdef' } });
    fake.seen.length = 0;
    expect((await check(server.id)).json().healthcheck_status).toBe('healthy');
    expect(fake.seen[0]?.headers['x-api-key']).toBe(apiKey);
    expect(fake.seen[0]?.headers['x-team']).toBeUndefined();
  });

  it('marks a server unhealthy with the reason', async () => {
    const wrongKey = (
      await create({ name: 'Wrong key', url: fake.url, headers: { 'X-Api-Key': 'nope' } })
    ).json();
    const refused = (await check(wrongKey.id)).json();
    expect(refused).toMatchObject({ healthcheck_status: 'unhealthy', oauth: false });
    expect(refused.healthcheck_error).toBe(
      'The server refused the request (401 Unauthorized), and offers no OAuth metadata: check the URL and the headers (an API key?)',
    );

    const server = (await create({ name: 'Flaky', url: fake.url, headers: { 'X-Api-Key': apiKey } })).json();
    fake.failWith = { status: 503, body: 'maintenance' };
    try {
      const down = (await check(server.id)).json();
      expect(down).toMatchObject({
        healthcheck_status: 'unhealthy',
        healthcheck_error: 'The server answered HTTP 503 Service Unavailable',
      });
    } finally {
      fake.failWith = null;
    }

    const notFound = (await create({ name: 'Wrong path', url: fake.url.replace('/mcp', '/nope') })).json();
    expect((await check(notFound.id)).json().healthcheck_error).toBe(
      'The server answered 404 Not Found: check the URL (it is usually the one ending in /mcp)',
    );

    const closed = await startFakeMcpServer();
    await closed.close();
    const gone = (await create({ name: 'Gone', url: closed.url })).json();
    const unreachable = (await check(gone.id)).json();
    expect(unreachable.healthcheck_status).toBe('unhealthy');
    expect(unreachable.healthcheck_error).toMatch(/ECONNREFUSED/);
  });

  it('enables a server without OAuth at once, for the caller only, and disables it', async () => {
    const server = (await create({ name: 'Open', url: fake.url, headers: { 'X-Api-Key': apiKey } })).json();
    const enabled = await app.inject({
      method: 'POST',
      url: `${base}/enabled_mcp_servers`,
      headers: viewer,
      payload: { mcp_server_id: server.id, after_oauth_redirect_url: 'http://localhost:3000/somewhere' },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toEqual({
      id: expect.any(Number),
      mcp_server_id: server.id,
      name: 'Open',
      enabled: true,
      start_oauth_flow_url: null,
      logo_url: null,
      created_at: expect.any(String),
    });
    // Enabling twice is the same row.
    const twice = await app.inject({
      method: 'POST',
      url: `${base}/enabled_mcp_servers`,
      headers: viewer,
      payload: { mcp_server_id: server.id },
    });
    expect(twice.json().id).toBe(enabled.json().id);
    const mine = await app.inject({ method: 'GET', url: `${base}/enabled_mcp_servers`, headers: viewer });
    expect(mine.json().results.map((row: { id: number }) => row.id)).toEqual([enabled.json().id]);
    const admins = await app.inject({ method: 'GET', url: `${base}/enabled_mcp_servers`, headers: admin });
    expect(admins.json().results).toEqual([]);
    // Someone else's row is not theirs to delete.
    const notTheirs = await app.inject({
      method: 'DELETE',
      url: `${base}/enabled_mcp_servers/${enabled.json().id}`,
      headers: admin,
    });
    expect(notTheirs.statusCode).toBe(404);
    const disabled = await app.inject({
      method: 'DELETE',
      url: `${base}/enabled_mcp_servers/${enabled.json().id}`,
      headers: viewer,
    });
    expect(disabled.statusCode).toBe(204);
  });

  it('refuses an after_oauth_redirect_url outside the app, and a server of another workspace', async () => {
    const server = (await create({ name: 'Redirects', url: fake.url })).json();
    for (const url of ['https://evil.example/steal', 'javascript:alert(1)', 'not a url']) {
      const response = await app.inject({
        method: 'POST',
        url: `${base}/enabled_mcp_servers`,
        headers: admin,
        payload: { mcp_server_id: server.id, after_oauth_redirect_url: url },
      });
      expect(response.statusCode, url).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['after_oauth_redirect_url']);
    }
    const missing = await app.inject({
      method: 'POST',
      url: `${base}/enabled_mcp_servers`,
      headers: admin,
      payload: { mcp_server_id: 2_000_000_000 },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ mcp_server_id: ['is not an MCP server of this workspace'] });
  });

  it('lets a Viewer read and connect, but not add, change, check or delete servers (403)', async () => {
    const server = (
      await create({ name: 'Guarded', url: fake.url, headers: { 'X-Api-Key': apiKey } })
    ).json();
    expect(
      (await app.inject({ method: 'GET', url: `${base}/mcp_servers`, headers: viewer })).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: `${base}/mcp_servers/${server.id}`, headers: viewer })).json()
        .headers,
    ).toEqual({ 'X-Api-Key': '••••cdef' });
    const refusals = [
      await create({ name: 'Mine', url: fake.url }, viewer),
      await app.inject({
        method: 'PATCH',
        url: `${base}/mcp_servers/${server.id}`,
        headers: viewer,
        payload: { name: 'x' },
      }),
      await check(server.id, viewer),
      await app.inject({ method: 'DELETE', url: `${base}/mcp_servers/${server.id}`, headers: viewer }),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You need the manage_mcp_servers permission to do this');
    }
  });

  it('answers 404 for another organization’s servers, tools and enabled servers', async () => {
    const server = (
      await create({ name: 'Private', url: fake.url, headers: { 'X-Api-Key': apiKey } })
    ).json();
    const checked = (await check(server.id)).json();
    const enabled = (
      await app.inject({
        method: 'POST',
        url: `${base}/enabled_mcp_servers`,
        headers: admin,
        payload: { mcp_server_id: server.id },
      })
    ).json();
    const other = await createTestOrganization(app);
    const otherAdmin = await apiKeyHeadersFor(app, other, other.admin);
    const otherBase = `/api/v1/workspaces/${other.workspaceId}`;
    const attempts = [
      { method: 'GET', url: `${base}/mcp_servers/${server.id}` },
      { method: 'GET', url: `${otherBase}/mcp_servers/${server.id}` },
      { method: 'PATCH', url: `${otherBase}/mcp_servers/${server.id}`, payload: { name: 'Mine now' } },
      { method: 'DELETE', url: `${otherBase}/mcp_servers/${server.id}` },
      { method: 'POST', url: `${otherBase}/mcp_servers/${server.id}/perform_healthcheck` },
      {
        method: 'PATCH',
        url: `${otherBase}/mcp_servers/${server.id}/mcp_server_tools/${checked.tools[0].id}`,
        payload: { enabled: true },
      },
      { method: 'DELETE', url: `${otherBase}/enabled_mcp_servers/${enabled.id}` },
    ] as const;
    for (const attempt of attempts) {
      const response = await app.inject({ ...attempt, headers: otherAdmin });
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(404);
    }
    const enabling = await app.inject({
      method: 'POST',
      url: `${otherBase}/enabled_mcp_servers`,
      headers: otherAdmin,
      payload: { mcp_server_id: server.id },
    });
    expect(enabling.statusCode).toBe(422);
    // A tool id of another server of the same workspace is not found either.
    const another = (await create({ name: 'Another', url: fake.url })).json();
    const wrongServer = await app.inject({
      method: 'PATCH',
      url: `${base}/mcp_servers/${another.id}/mcp_server_tools/${checked.tools[0].id}`,
      headers: admin,
      payload: { enabled: true },
    });
    expect(wrongServer.statusCode).toBe(404);
  });

  it('deletes a server with its tools and connections', async () => {
    const server = (
      await create({ name: 'Temporary', url: fake.url, headers: { 'X-Api-Key': apiKey } })
    ).json();
    await check(server.id);
    await app.inject({
      method: 'POST',
      url: `${base}/enabled_mcp_servers`,
      headers: admin,
      payload: { mcp_server_id: server.id },
    });
    const deleted = await app.inject({
      method: 'DELETE',
      url: `${base}/mcp_servers/${server.id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: `${base}/mcp_servers/${server.id}`, headers: admin }))
        .statusCode,
    ).toBe(404);
    const mine = await app.inject({ method: 'GET', url: `${base}/enabled_mcp_servers`, headers: admin });
    expect(
      mine.json().results.some((row: { mcp_server_id: number }) => row.mcp_server_id === server.id),
    ).toBe(false);
  });
});
