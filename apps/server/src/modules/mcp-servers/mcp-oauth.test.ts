import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledMcpServers, mcpServers } from '../../db/schema.ts';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
  type TestUser,
} from '../../test/factories.ts';
import { type FakeOAuthMcpServer, startFakeOAuthMcpServer } from '../../test/fakes/fake-mcp-server.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { mcpToolName, openMcpTools } from './mcp-tools.ts';

const callbackUrl = 'http://localhost:3000/api/v1/mcp_oauth/callback';

describe('MCP servers with OAuth 2.1', () => {
  let app: TestApp;
  let fake: FakeOAuthMcpServer;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let editorUser: TestUser;
  let editor: Record<string, string>;
  let base: string;
  let serverId: number;
  let afterUrl: string;

  const services = () => app.services;
  const check = () =>
    app.inject({
      method: 'POST',
      url: `${base}/mcp_servers/${serverId}/perform_healthcheck`,
      headers: admin,
    });
  const enabledRow = async (userId: number) => {
    const [row] = await app.services.database.db
      .select()
      .from(enabledMcpServers)
      .where(and(eq(enabledMcpServers.userId, userId), eq(enabledMcpServers.mcpServerId, serverId)));
    return row;
  };
  /** The browser's part: follow the start URL to the authorization server and back to Letterset. */
  const signIn = async (startUrl: string, headers: Record<string, string>) => {
    const location = await fake.authorize(startUrl);
    expect(location.startsWith(`${callbackUrl}?`)).toBe(true);
    const back = new URL(location);
    return app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers });
  };
  const callTool = async (userId: number, args: Record<string, unknown>) => {
    const opened = await openMcpTools(services(), {
      organizationId: organization.organizationId,
      workspaceId: organization.workspaceId,
      userId,
    });
    try {
      const tool = opened.tools[mcpToolName(serverId, 'get_brief')];
      if (!tool?.execute) return null;
      return await tool.execute(args, { toolCallId: 'call-1', messages: [], context: {} } as never);
    } finally {
      await opened.close();
    }
  };

  beforeAll(async () => {
    fake = await startFakeOAuthMcpServer();
    app = await buildTestApp({
      config: { outboundFetch: { allowPrivateNetwork: true, timeoutMs: 5000, maxBytes: 1024 * 1024 } },
    });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    editorUser = await createTestUser(app, organization, { role: 'Editor' });
    editor = await signInAs(app, editorUser);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    afterUrl = `http://localhost:3000/workspaces/${organization.workspaceId}/connectors/mcp?from=test`;
    const created = await app.inject({
      method: 'POST',
      url: `${base}/mcp_servers`,
      headers: admin,
      payload: { name: 'Notion', url: fake.url },
    });
    serverId = created.json().id;
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('finds OAuth at the health check, registers Letterset, and asks people to connect', async () => {
    const checked = await check();
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({
      oauth: true,
      healthcheck_status: 'healthy',
      healthcheck_error: 'Connect your account to list its tools',
      tools: [],
    });
    // Dynamic client registration, with the callback as the redirect URI.
    expect([...fake.clients.values()]).toEqual([
      { clientSecret: expect.any(String), redirectUris: [callbackUrl], clientName: 'Letterset' },
    ]);
    const [client] = [...fake.clients.values()];
    const [row] = await app.services.database.db.select().from(mcpServers).where(eq(mcpServers.id, serverId));
    expect(JSON.stringify(row?.oauthSettings)).not.toContain(client?.clientSecret);
    expect(row?.oauthSettings).toMatchObject({ resource: fake.url, authorizationServerUrl: fake.issuer });

    const start = new URL(checked.json().start_oauth_flow_url);
    expect(`${start.origin}${start.pathname}`).toBe(`${fake.issuer}/authorize`);
    expect(Object.fromEntries(start.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: [...fake.clients.keys()][0],
      redirect_uri: callbackUrl,
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      resource: fake.url,
      state: expect.any(String),
    });

    // A second check keeps the registration.
    await check();
    expect(fake.clients.size).toBe(1);
  });

  it('is unhealthy when the authorization server offers no dynamic client registration', async () => {
    const closed = await startFakeOAuthMcpServer({ dynamicRegistration: false });
    try {
      const created = await app.inject({
        method: 'POST',
        url: `${base}/mcp_servers`,
        headers: admin,
        payload: { name: 'Closed', url: closed.url },
      });
      const checked = await app.inject({
        method: 'POST',
        url: `${base}/mcp_servers/${created.json().id}/perform_healthcheck`,
        headers: admin,
      });
      expect(checked.json()).toMatchObject({
        oauth: true,
        healthcheck_status: 'unhealthy',
        healthcheck_error:
          'The authorization server does not offer dynamic client registration, which Letterset needs to connect to it',
        start_oauth_flow_url: null,
      });
    } finally {
      await closed.close();
    }
  });

  it('connects a person through the whole flow; their tokens are sealed and the tools listed with them', async () => {
    const enabling = await app.inject({
      method: 'POST',
      url: `${base}/enabled_mcp_servers`,
      headers: admin,
      payload: { mcp_server_id: serverId, after_oauth_redirect_url: afterUrl },
    });
    expect(enabling.statusCode, enabling.body).toBe(200);
    expect(enabling.json()).toMatchObject({ mcp_server_id: serverId, name: 'Notion', enabled: false });
    const callback = await signIn(enabling.json().start_oauth_flow_url, admin);
    expect(callback.statusCode, callback.body).toBe(302);
    const back = new URL(callback.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(
      `http://localhost:3000/workspaces/${organization.workspaceId}/connectors/mcp`,
    );
    expect(Object.fromEntries(back.searchParams)).toEqual({
      from: 'test',
      mcp_server_id: String(serverId),
      mcp_oauth: 'connected',
    });

    const [grant] = fake.grants;
    expect(grant?.grantType).toBe('authorization_code');
    const row = await enabledRow(organization.admin.id);
    expect(row?.enabled).toBe(true);
    expect(row?.sealedTokens).toBeTruthy();
    expect(row?.sealedTokens).not.toContain(grant?.accessToken);
    expect(row?.sealedTokens).not.toContain(grant?.refreshToken);
    expect(row?.tokensExpireAt?.getTime()).toBeGreaterThan(Date.now() + 3500_000);

    const mine = (
      await app.inject({ method: 'GET', url: `${base}/enabled_mcp_servers`, headers: admin })
    ).json();
    expect(mine.results).toEqual([expect.objectContaining({ enabled: true, start_oauth_flow_url: null })]);

    // Now the check lists the tools with the admin's own token.
    fake.seen.length = 0;
    const checked = (await check()).json();
    expect(checked).toMatchObject({
      healthcheck_status: 'healthy',
      healthcheck_error: null,
      oauth: true,
      start_oauth_flow_url: null,
    });
    expect(checked.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_brief', 'list_products']);
    expect(
      fake.seen.every((request) => request.headers.authorization === `Bearer ${grant?.accessToken}`),
    ).toBe(true);

    // Someone who has not connected still gets a start URL of their own.
    const forEditor = (
      await app.inject({ method: 'GET', url: `${base}/mcp_servers/${serverId}`, headers: editor })
    ).json();
    expect(forEditor.start_oauth_flow_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
  });

  it('calls an enabled tool with the person’s token, and refreshes it when it expires', async () => {
    const tools = (
      await app.inject({ method: 'GET', url: `${base}/mcp_servers/${serverId}`, headers: admin })
    ).json().tools;
    const getBrief = tools.find((tool: { name: string }) => tool.name === 'get_brief');
    await app.inject({
      method: 'PATCH',
      url: `${base}/mcp_servers/${serverId}/mcp_server_tools/${getBrief.id}`,
      headers: admin,
      payload: { enabled: true },
    });
    expect(await callTool(organization.admin.id, { campaign: 'Spring' })).toEqual({
      text: 'get_brief({"campaign":"Spring"})',
    });
    expect(fake.calls.at(-1)?.accessToken).toBe(fake.grants[0]?.accessToken);

    // The token expires: Letterset refreshes it first (refresh_token grant) and stores the new ones.
    const before = await enabledRow(organization.admin.id);
    await app.services.database.db
      .update(enabledMcpServers)
      .set({ tokensExpireAt: new Date(Date.now() - 1000) })
      .where(eq(enabledMcpServers.id, before?.id ?? 0));
    fake.expireAccessTokens();
    expect(await callTool(organization.admin.id, { campaign: 'Summer' })).toEqual({
      text: 'get_brief({"campaign":"Summer"})',
    });
    const refreshed = fake.grants.at(-1);
    expect(refreshed?.grantType).toBe('refresh_token');
    expect(fake.calls.at(-1)?.accessToken).toBe(refreshed?.accessToken);
    const after = await enabledRow(organization.admin.id);
    expect(after?.sealedTokens).not.toBe(before?.sealedTokens);
    expect(after?.tokensExpireAt?.getTime()).toBeGreaterThan(Date.now() + 3500_000);

    // The server forgets a token before its time: the 401 makes Letterset refresh once and retry.
    fake.expireAccessTokens();
    expect(await callTool(organization.admin.id, { campaign: 'Autumn' })).toEqual({
      text: 'get_brief({"campaign":"Autumn"})',
    });
    expect(fake.grants.filter((entry) => entry.grantType === 'refresh_token')).toHaveLength(2);
  });

  it('offers no tools of the server to someone who has not connected', async () => {
    await app.inject({
      method: 'POST',
      url: `${base}/enabled_mcp_servers`,
      headers: editor,
      payload: { mcp_server_id: serverId },
    });
    expect((await enabledRow(editorUser.id))?.enabled).toBe(false);
    expect(await callTool(editorUser.id, { campaign: 'x' })).toBeNull();
  });

  it('refuses callbacks it cannot trust', async () => {
    const noState = await app.inject({ method: 'GET', url: '/api/v1/mcp_oauth/callback' });
    expect(noState.statusCode).toBe(200);
    expect(noState.headers['content-type']).toContain('text/html');
    expect(noState.body).toContain('This sign-in link is not valid');
    const forged = await app.inject({
      method: 'GET',
      url: '/api/v1/mcp_oauth/callback?code=abc&state=v1.forged.state',
    });
    expect(forged.body).toContain('This sign-in link is not valid');

    // The editor's link, finished in a browser signed in as the admin, connects nobody.
    const editorStart = (
      await app.inject({ method: 'GET', url: `${base}/enabled_mcp_servers`, headers: editor })
    ).json().results[0].start_oauth_flow_url;
    const grants = fake.grants.length;
    const crossed = await signIn(editorStart, admin);
    expect(crossed.statusCode).toBe(302);
    expect(new URL(crossed.headers.location as string).searchParams.get('mcp_oauth_error')).toBe(
      'This sign-in was started by another Letterset user: click Connect again',
    );
    expect(fake.grants.length).toBe(grants);
    expect((await enabledRow(editorUser.id))?.enabled).toBe(false);

    // The person said no at the authorization server.
    const state = new URL(editorStart).searchParams.get('state') as string;
    const denied = await app.inject({
      method: 'GET',
      url: `/api/v1/mcp_oauth/callback?error=access_denied&state=${encodeURIComponent(state)}`,
      headers: editor,
    });
    expect(new URL(denied.headers.location as string).searchParams.get('mcp_oauth_error')).toBe(
      'Access was denied at the sign-in',
    );

    // A code the authorization server does not know.
    const badCode = await app.inject({
      method: 'GET',
      url: `/api/v1/mcp_oauth/callback?code=made-up&state=${encodeURIComponent(state)}`,
      headers: editor,
    });
    expect(new URL(badCode.headers.location as string).searchParams.get('mcp_oauth_error')).toMatch(
      /^Exchanging the sign-in code failed: the authorization server answered invalid_grant/,
    );
    expect((await enabledRow(editorUser.id))?.enabled).toBe(false);
  });

  it('connects in one request from the app opened at another loopback address than APP_URL, and returns there', async () => {
    const author = await createTestUser(app, organization, { role: 'Editor' });
    const authorHeaders = await signInAs(app, author);
    // The app is at http://localhost:3000 (APP_URL); this person opened it at 127.0.0.1.
    const returnUrl = `http://127.0.0.1:3000/workspaces/${organization.workspaceId}/connectors/mcp`;
    const enabling = await app.inject({
      method: 'POST',
      url: `${base}/enabled_mcp_servers`,
      headers: authorHeaders,
      payload: { mcp_server_id: serverId, after_oauth_redirect_url: returnUrl },
    });
    expect(enabling.statusCode, enabling.body).toBe(200);
    // The authorization server sends the browser to APP_URL's callback, where this browser has no
    // session (it is on 127.0.0.1): the sealed state says who connects.
    const callback = await signIn(enabling.json().start_oauth_flow_url, {});
    expect(callback.statusCode, callback.body).toBe(302);
    const back = new URL(callback.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(returnUrl);
    expect(back.searchParams.get('mcp_oauth')).toBe('connected');
    expect((await enabledRow(author.id))?.enabled).toBe(true);
  });

  it('finishes the flow for the editor too, then forgets everyone’s tokens when the URL changes', async () => {
    const start = (
      await app.inject({ method: 'GET', url: `${base}/enabled_mcp_servers`, headers: editor })
    ).json().results[0].start_oauth_flow_url;
    const back = await signIn(start, editor);
    expect(new URL(back.headers.location as string).searchParams.get('mcp_oauth')).toBe('connected');
    expect((await enabledRow(editorUser.id))?.enabled).toBe(true);

    const moved = await app.inject({
      method: 'PATCH',
      url: `${base}/mcp_servers/${serverId}`,
      headers: admin,
      payload: { url: `${fake.url}?tenant=2` },
    });
    expect(moved.json()).toMatchObject({ healthcheck_status: 'pending', oauth: false });
    for (const userId of [organization.admin.id, editorUser.id]) {
      const row = await enabledRow(userId);
      expect(row).toMatchObject({ enabled: false, sealedTokens: null });
    }
  });
});
