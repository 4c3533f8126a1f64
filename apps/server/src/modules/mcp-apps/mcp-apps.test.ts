import {
  Client,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpAccessTokens, mcpApps } from '../../db/schema.ts';
import { tokenDigest } from '../../security/tokens.ts';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import type { TestApp } from '../../test/harness.ts';
import {
  consentInBrowser,
  listeningTestApp,
  mcpClientWith,
  pkcePair,
  type RegisteredMcpApp,
  redirectUri,
  registerMcpApp,
  tokenRequest,
  tokensFor,
} from './mcp-test-support.ts';

describe('MCP apps and OAuth', () => {
  let app: TestApp;
  let baseUrl: string;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let claude: RegisteredMcpApp;

  beforeAll(async () => {
    ({ app, baseUrl } = await listeningTestApp());
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    claude = await registerMcpApp(app, admin);
  });
  afterAll(() => app.close());

  const authorizeUrl = (parameters: Record<string, string>) =>
    `${baseUrl}/oauth/authorize?${new URLSearchParams(parameters).toString()}`;

  /** A fresh code for the Admin, with its verifier. */
  async function codeFor(mcpApp = claude, uri = redirectUri) {
    const { verifier, challenge } = pkcePair();
    const back = await consentInBrowser(
      app,
      authorizeUrl({
        response_type: 'code',
        client_id: mcpApp.client_id,
        redirect_uri: uri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'state-1',
      }),
      admin,
    );
    return { code: back.searchParams.get('code') ?? '', verifier, back };
  }

  describe('registering', () => {
    it('shows the secret once, keeps a digest, and lists apps without it', async () => {
      const created = await registerMcpApp(app, admin, 'Cursor', [
        'cursor://anysphere.cursor-mcp/oauth/callback',
        'https://claude.ai/api/mcp/auth_callback',
      ]);
      expect(created.client_id).toMatch(/^lsci_[\w-]{24}$/);
      expect(created.client_secret).toMatch(/^lscs_[\w-]{43}$/);
      const [stored] = await app.services.database.db
        .select()
        .from(mcpApps)
        .where(eq(mcpApps.id, created.id));
      expect(JSON.stringify(stored)).not.toContain(created.client_secret);

      const listed = await app.inject({ method: 'GET', url: '/api/v1/mcp_apps', headers: admin });
      expect(listed.statusCode).toBe(200);
      const entry = listed.json().results.find((candidate: { id: number }) => candidate.id === created.id);
      expect(entry).toMatchObject({
        name: 'Cursor',
        client_id: created.client_id,
        redirect_uris: [
          'cursor://anysphere.cursor-mcp/oauth/callback',
          'https://claude.ai/api/mcp/auth_callback',
        ],
        created_by: { id: organization.admin.id, first_name: 'Ada' },
      });
      expect(JSON.stringify(listed.json())).not.toContain('lscs_');
    });

    it('takes https, loopback http or an app’s own scheme as redirect URIs', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/mcp_apps',
        headers: admin,
        payload: {
          name: 'Bad',
          redirect_uris: [
            'http://assistant.example.com/callback',
            'javascript:alert(1)',
            'https://assistant.example.com/callback#fragment',
            'not a url',
            'http://localhost:6274/callback',
          ],
        },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        code: 'validation_failed',
        message: 'Failed to save',
        errors: {
          'redirect_uris.0': ['must use https (plain http only for localhost, 127.0.0.1 or [::1])'],
          'redirect_uris.1': ['must not use javascript:'],
          'redirect_uris.2': ['must not have a fragment (#…)'],
          'redirect_uris.3': ['must be an absolute URL'],
        },
      });
    });

    it('renames an app and replaces its redirect URIs, keeping its client id and connections', async () => {
      const cursor = await registerMcpApp(app, admin, 'Cursor', [redirectUri]);
      const tokens = await tokensFor(app, baseUrl, cursor, admin);
      const patch = (payload: object) =>
        app.inject({ method: 'PATCH', url: `/api/v1/mcp_apps/${cursor.id}`, headers: admin, payload });
      const newRedirectUri = 'cursor://anysphere.cursor-mcp/oauth/callback';

      const refused = await patch({
        redirect_uris: [newRedirectUri, 'http://assistant.example.com/callback'],
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({
        'redirect_uris.1': ['must use https (plain http only for localhost, 127.0.0.1 or [::1])'],
      });

      const updated = await patch({ name: 'Cursor (team)', redirect_uris: [newRedirectUri] });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({
        id: cursor.id,
        name: 'Cursor (team)',
        client_id: cursor.client_id,
        redirect_uris: [newRedirectUri],
      });
      // Codes go to the new redirect URI only; the connection made before goes on working.
      const { back } = await codeFor(cursor, newRedirectUri);
      expect(back.protocol).toBe('cursor:');
      expect(back.searchParams.get('code')).toBeTruthy();
      await expect(codeFor(cursor, redirectUri)).rejects.toThrow(/authorize answered 400/);
      const client = await mcpClientWith(baseUrl, tokens.access_token);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();

      const elsewhere = await createTestOrganization(app);
      const stranger = await signInAs(app, elsewhere.admin);
      const foreign = await app.inject({
        method: 'PATCH',
        url: `/api/v1/mcp_apps/${cursor.id}`,
        headers: stranger,
        payload: { name: 'Mine now' },
      });
      expect(foreign.statusCode).toBe(404);
    });

    it('is for Admins (update_organization), and another organization’s apps are 404', async () => {
      const editor = await signInAs(app, await createTestUser(app, organization, { role: 'Editor' }));
      const refused = await app.inject({ method: 'GET', url: '/api/v1/mcp_apps', headers: editor });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        code: 'permission_denied',
        message: 'You need the update_organization permission to do this',
      });

      const other = await createTestOrganization(app);
      const otherAdmin = await signInAs(app, other.admin);
      const deleted = await app.inject({
        method: 'DELETE',
        url: `/api/v1/mcp_apps/${claude.id}`,
        headers: otherAdmin,
      });
      expect(deleted.statusCode).toBe(404);
      const described = await app.inject({
        method: 'GET',
        url: `/api/v1/mcp_consent/clients/${claude.client_id}`,
        headers: otherAdmin,
      });
      expect(described.statusCode).toBe(404);
    });
  });

  describe('discovery', () => {
    it('publishes RFC 9728 and RFC 8414 metadata', async () => {
      const resource = await (await fetch(`${baseUrl}/.well-known/oauth-protected-resource`)).json();
      expect(resource).toMatchObject({ resource: `${baseUrl}/mcp`, authorization_servers: [baseUrl] });
      const suffixed = await (await fetch(`${baseUrl}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(suffixed).toEqual(resource);
      const server = await (await fetch(`${baseUrl}/.well-known/oauth-authorization-server`)).json();
      expect(server).toMatchObject({
        issuer: baseUrl,
        authorization_endpoint: `${baseUrl}/oauth/authorize`,
        token_endpoint: `${baseUrl}/oauth/token`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      });
    });

    it('answers /mcp without a valid token 401, pointing at the metadata', async () => {
      const call = (headers: Record<string, string>) =>
        fetch(`${baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      const anonymous = await call({});
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"`,
      );
      const madeUp = await call({ authorization: 'Bearer lsat_made_up' });
      expect(madeUp.status).toBe(401);
      expect(madeUp.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(await madeUp.json()).toEqual({
        code: 'authentication_required',
        message: 'This access token is not valid: it may have expired or been revoked',
      });
      // A browser's session cookie is not a way in: assistants send tokens.
      expect((await call({ cookie: admin.cookie ?? '' })).status).toBe(401);
      const get = await fetch(`${baseUrl}/mcp`);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
    });
  });

  it('lets the MCP SDK’s own OAuth client discover, authorize with PKCE, and connect as the person', async () => {
    const stored: {
      tokens?: { access_token: string };
      verifier?: string;
      authorizationUrl?: URL;
      discovery?: OAuthDiscoveryState;
    } = {};
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return redirectUri;
      },
      get clientMetadata() {
        return { client_name: 'Claude', redirect_uris: [redirectUri] };
      },
      clientInformation: () => ({ client_id: claude.client_id, client_secret: claude.client_secret }),
      tokens: () => stored.tokens as never,
      saveTokens: (tokens) => {
        stored.tokens = tokens;
      },
      redirectToAuthorization: (url) => {
        stored.authorizationUrl = url;
      },
      saveCodeVerifier: (verifier) => {
        stored.verifier = verifier;
      },
      codeVerifier: () => stored.verifier ?? '',
      saveDiscoveryState: (state) => {
        stored.discovery = state;
      },
      discoveryState: () => stored.discovery,
    };
    const url = new URL(`${baseUrl}/mcp`);
    const firstTry = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: 'sdk', version: '1' }).connect(firstTry)).rejects.toThrow();
    expect(stored.authorizationUrl?.origin).toBe(baseUrl);
    expect(stored.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');

    const back = await consentInBrowser(app, stored.authorizationUrl ?? '', admin);
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('iss')).toBe(baseUrl);
    await firstTry.finishAuth(back.searchParams);
    expect(stored.tokens?.access_token).toMatch(/^lsat_/);

    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('create_email');
    await client.close();
  });

  describe('the authorization endpoint', () => {
    const { challenge } = pkcePair();
    const valid = () => ({
      response_type: 'code',
      client_id: claude.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'abc',
    });

    it('sends someone signed in to the consent screen, and someone else to sign in first', async () => {
      const signedIn = await fetch(authorizeUrl(valid()), {
        headers: { cookie: admin.cookie ?? '' },
        redirect: 'manual',
      });
      const consent = new URL(signedIn.headers.get('location') ?? '');
      expect(consent.origin + consent.pathname).toBe(`${baseUrl}/oauth/consent`);
      expect(Object.fromEntries(consent.searchParams)).toEqual({
        client_id: claude.client_id,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'abc',
      });

      const anonymous = await fetch(authorizeUrl(valid()), { redirect: 'manual' });
      const signIn = new URL(anonymous.headers.get('location') ?? '');
      expect(signIn.pathname).toBe('/sign-in');
      expect(signIn.searchParams.get('redirect')).toBe(`/oauth/consent?${consent.searchParams.toString()}`);
    });

    it('never redirects to an unknown app or an unregistered redirect URI', async () => {
      for (const parameters of [
        { ...valid(), client_id: 'lsci_unknown' },
        { ...valid(), redirect_uri: 'https://attacker.example.com/callback' },
      ]) {
        const response = await fetch(authorizeUrl(parameters), { redirect: 'manual' });
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toContain('text/html');
        expect(response.headers.get('location')).toBeNull();
      }
    });

    it('sends other problems back to the app', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ ...valid(), code_challenge_method: 'plain' }, 'invalid_request'],
        [{ ...valid(), code_challenge: '' }, 'invalid_request'],
        [{ ...valid(), response_type: 'token' }, 'unsupported_response_type'],
        [{ ...valid(), resource: 'https://elsewhere.example.com/mcp' }, 'invalid_target'],
      ];
      for (const [parameters, error] of cases) {
        const response = await fetch(authorizeUrl(parameters), { redirect: 'manual' });
        expect(response.status).toBe(302);
        const back = new URL(response.headers.get('location') ?? '');
        expect(back.origin + back.pathname).toBe(redirectUri);
        expect(back.searchParams.get('error')).toBe(error);
        expect(back.searchParams.get('state')).toBe('abc');
      }
    });

    it('accepts a loopback redirect URI on another port (RFC 8252)', async () => {
      const { code, verifier, back } = await codeFor(claude, 'http://127.0.0.1:51234/callback');
      expect(back.port).toBe('51234');
      const exchanged = await tokenRequest(baseUrl, {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: 'http://127.0.0.1:51234/callback',
        client_id: claude.client_id,
        client_secret: claude.client_secret,
      });
      expect(exchanged.status).toBe(200);
    });
  });

  describe('consent', () => {
    it('Deny sends access_denied back with the state, and issues nothing', async () => {
      const before = await app.services.database.db.$count(mcpAccessTokens);
      const back = await consentInBrowser(
        app,
        authorizeUrl({
          response_type: 'code',
          client_id: claude.client_id,
          redirect_uri: redirectUri,
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          state: 'denied-state',
        }),
        admin,
        false,
      );
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('denied-state');
      expect(back.searchParams.get('code')).toBeNull();
      expect(await app.services.database.db.$count(mcpAccessTokens)).toBe(before);
    });

    it('describes the app for the screen, and checks the request again', async () => {
      const described = await app.inject({
        method: 'GET',
        url: `/api/v1/mcp_consent/clients/${claude.client_id}`,
        headers: admin,
      });
      expect(described.json()).toEqual({
        client_id: claude.client_id,
        name: 'Claude',
        organization_name: expect.stringMatching(/^Org /),
      });
      const answer = await app.inject({
        method: 'POST',
        url: '/api/v1/mcp_consent',
        headers: admin,
        payload: {
          allow: true,
          client_id: claude.client_id,
          redirect_uri: 'https://attacker.example.com/callback',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        },
      });
      expect(answer.statusCode).toBe(422);
      expect(answer.json().errors).toEqual({
        redirect_uri: ['is not one of the app’s registered redirect URIs'],
      });
    });

    it('is only for people of the app’s organization', async () => {
      const other = await createTestOrganization(app);
      const answer = await app.inject({
        method: 'POST',
        url: '/api/v1/mcp_consent',
        headers: await signInAs(app, other.admin),
        payload: {
          allow: true,
          client_id: claude.client_id,
          redirect_uri: redirectUri,
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        },
      });
      expect(answer.statusCode).toBe(404);
    });
  });

  describe('the token endpoint', () => {
    it('exchanges a code once, with the right secret, redirect URI and PKCE verifier', async () => {
      const { code, verifier } = await codeFor();
      const exchange = (overrides: Record<string, string>) =>
        tokenRequest(baseUrl, {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
          client_id: claude.client_id,
          client_secret: claude.client_secret,
          ...overrides,
        });

      const wrongSecret = await exchange({ client_secret: 'lscs_wrong' });
      expect(wrongSecret).toEqual({
        status: 401,
        body: { error: 'invalid_client', error_description: 'Unknown client or wrong client secret' },
      });
      const exchanged = await exchange({});
      expect(exchanged.status).toBe(200);
      expect(exchanged.body).toEqual({
        access_token: expect.stringMatching(/^lsat_/),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: expect.stringMatching(/^lsrt_/),
      });
      const [row] = await app.services.database.db
        .select()
        .from(mcpAccessTokens)
        .where(eq(mcpAccessTokens.mcpAppId, claude.id));
      expect(JSON.stringify(row)).not.toContain(String(exchanged.body.access_token));

      // The app refreshes its tokens; then the code comes again, as it would from someone who stole it.
      const client = { client_id: claude.client_id, client_secret: claude.client_secret };
      const refreshed = await tokenRequest(baseUrl, {
        grant_type: 'refresh_token',
        refresh_token: String(exchanged.body.refresh_token),
        ...client,
      });
      expect(refreshed.status).toBe(200);
      const listTools = (token: unknown) =>
        fetch(`${baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${String(token)}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      expect((await listTools(refreshed.body.access_token)).status).toBe(200);

      const reused = await exchange({});
      expect(reused).toEqual({
        status: 400,
        body: {
          error: 'invalid_grant',
          error_description: 'The authorization code was already used: the tokens issued for it are revoked',
        },
      });
      // Everything the code led to stops working at once, the refreshed pair included.
      expect((await listTools(refreshed.body.access_token)).status).toBe(401);
      const refreshAgain = await tokenRequest(baseUrl, {
        grant_type: 'refresh_token',
        refresh_token: String(refreshed.body.refresh_token),
        ...client,
      });
      expect(refreshAgain.body.error).toBe('invalid_grant');
    });

    it('uses a code up when its exchange is refused: the right verifier after a wrong one fails', async () => {
      const exchange = (code: string, overrides: Record<string, string>) =>
        tokenRequest(baseUrl, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: claude.client_id,
          client_secret: claude.client_secret,
          ...overrides,
        });
      const guessed = await codeFor();
      expect(await exchange(guessed.code, { code_verifier: pkcePair().verifier })).toEqual({
        status: 400,
        body: {
          error: 'invalid_grant',
          error_description: 'code_verifier does not match the code_challenge (PKCE S256)',
        },
      });
      const afterWrongVerifier = await exchange(guessed.code, { code_verifier: guessed.verifier });
      expect(afterWrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

      const redirected = await codeFor();
      const wrongRedirect = await exchange(redirected.code, {
        code_verifier: redirected.verifier,
        redirect_uri: 'http://127.0.0.1:33418/other',
      });
      expect(wrongRedirect).toMatchObject({
        status: 400,
        body: {
          error: 'invalid_grant',
          error_description: 'redirect_uri is not the one the code was issued for',
        },
      });
      const afterWrongRedirect = await exchange(redirected.code, { code_verifier: redirected.verifier });
      expect(afterWrongRedirect).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

      const issued = await app.services.database.db
        .select()
        .from(mcpAccessTokens)
        .where(eq(mcpAccessTokens.mcpAppId, claude.id));
      expect(
        issued.filter((row) =>
          [guessed.code, redirected.code].some((code) => row.authorizationCodeHash === tokenDigest(code)),
        ),
      ).toEqual([]);
    });

    it('refuses a code of another app, an unknown grant, and a body that is not a form', async () => {
      const cursor = await registerMcpApp(app, admin, 'Other app');
      const { code, verifier } = await codeFor();
      const stolen = await tokenRequest(baseUrl, {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: cursor.client_id,
        client_secret: cursor.client_secret,
      });
      expect(stolen.body.error).toBe('invalid_grant');
      const password = await tokenRequest(baseUrl, {
        grant_type: 'password',
        client_id: claude.client_id,
        client_secret: claude.client_secret,
      });
      expect(password).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
      const xml = await fetch(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: '<grant/>',
      });
      expect(xml.status).toBe(400);
      expect(((await xml.json()) as { error: string }).error).toBe('invalid_request');
    });

    it('rotates the refresh token, with client_secret_basic too', async () => {
      const tokens = await tokensFor(app, baseUrl, claude, admin);
      const refreshed = await tokenRequest(
        baseUrl,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
        { basic: { id: claude.client_id, secret: claude.client_secret } },
      );
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);

      const client = await mcpClientWith(baseUrl, String(refreshed.body.access_token));
      expect((await client.listTools()).tools.length).toBeGreaterThan(5);
      await client.close();

      const again = await tokenRequest(
        baseUrl,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
        { basic: { id: claude.client_id, secret: claude.client_secret } },
      );
      expect(again.body.error).toBe('invalid_grant');
      await expect(mcpClientWith(baseUrl, tokens.access_token)).rejects.toThrow();
    });
  });

  it('stops a removed person’s tokens, and every token of a deleted app', async () => {
    const developer = await createTestUser(app, organization, { role: 'Developer' });
    const developerTokens = await tokensFor(app, baseUrl, claude, await signInAs(app, developer));
    const adminTokens = await tokensFor(app, baseUrl, claude, admin);
    await (await mcpClientWith(baseUrl, developerTokens.access_token)).close();

    await app.inject({ method: 'DELETE', url: `/api/v1/users/${developer.id}`, headers: admin });
    await expect(mcpClientWith(baseUrl, developerTokens.access_token)).rejects.toThrow();
    const refresh = await tokenRequest(baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: developerTokens.refresh_token,
      client_id: claude.client_id,
      client_secret: claude.client_secret,
    });
    expect(refresh.body.error).toBe('invalid_grant');

    const client = await mcpClientWith(baseUrl, adminTokens.access_token);
    await client.close();
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/v1/mcp_apps/${claude.id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBe(204);
    await expect(mcpClientWith(baseUrl, adminTokens.access_token)).rejects.toThrow();
  });
});
