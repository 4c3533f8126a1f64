import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * Outside MCP servers for tests: a real MCP server from the SDK (Streamable HTTP, stateless,
 * JSON answers) on 127.0.0.1, with tools a test chooses, and an OAuth 2.1-protected variant
 * with its own tiny authorization server (RFC 9728 protected resource metadata, RFC 8414
 * metadata, RFC 7591 dynamic client registration, authorization code with PKCE S256, refresh).
 */

/** A tool the fake offers: its arguments are string properties; the answer is text. */
export interface FakeMcpTool {
  name: string;
  description?: string;
  /** Names of required string arguments, each described as "The <name>". */
  arguments?: string[];
  /** The text the tool answers; by default `<name>(<arguments as JSON>)`. */
  answer?: (args: Record<string, unknown>, context: { accessToken?: string }) => string;
}

/** What the fake MCP endpoint saw (not the OAuth endpoints). */
export interface FakeMcpRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON-RPC method(s) of a POST, e.g. `tools/list`. */
  rpcMethods: string[];
}

export interface FakeMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The tools it offers now: tests change this to add or remove tools between health checks. */
  tools: FakeMcpTool[];
  seen: FakeMcpRequest[];
  /** Calls of tools, in order, with the arguments and the bearer token they came with. */
  calls: { name: string; args: Record<string, unknown>; accessToken?: string }[];
  /**
   * Headers every MCP request must carry (name lower-case → value), else 401 without OAuth
   * metadata (the way a server with an API key refuses a request without it).
   */
  requiredHeaders: Record<string, string>;
  /** While set, every MCP request is answered with this status and body (an outage). */
  failWith: { status: number; body: string } | null;
  close(): Promise<void>;
}

export interface FakeOAuthMcpServer extends FakeMcpServer {
  /** The authorization server's issuer (its own origin). */
  issuer: string;
  /** Clients registered by dynamic client registration, by client id. */
  clients: Map<string, { clientSecret: string; redirectUris: string[]; clientName?: string }>;
  /** Grants the token endpoint answered, in order. */
  grants: { grantType: string; clientId: string; accessToken: string; refreshToken: string }[];
  /** How long the access tokens it issues last, in seconds (`expires_in`). */
  accessTokenLifetimeSeconds: number;
  /** Forgets every access token issued so far: the next requests with them get 401. */
  expireAccessTokens(): void;
  /**
   * What the browser does at the authorize URL: the person signs in and consents, the
   * authorization server redirects back. Answers the redirect's Location (with code and state),
   * or throws with the authorization server's refusal.
   */
  authorize(authorizeUrl: string): Promise<string>;
}

const defaultTools: FakeMcpTool[] = [
  { name: 'get_brief', description: 'Reads a campaign brief', arguments: ['campaign'] },
  { name: 'list_products', description: 'Lists the products of the shop' },
];

interface RunningHttp {
  origin: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, on the given port or (by default) any free one. */
async function listen(
  handler: http.RequestListener,
  port = 0,
): Promise<{ server: http.Server } & RunningHttp> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: http.ServerResponse, status: number, body: unknown, headers = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function rpcMethodsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages
    .map((message) => (message as { method?: unknown } | null)?.method)
    .filter((method): method is string => typeof method === 'string');
}

/** One MCP server per request (stateless), with the tools the fake offers at that moment. */
function mcpServerFor(fake: FakeMcpServer, accessToken: string | undefined): McpServer {
  const server = new McpServer({ name: 'fake-mcp-server', version: '1.0.0' });
  for (const tool of fake.tools) {
    const shape: Record<string, z.ZodString> = {};
    for (const argument of tool.arguments ?? []) shape[argument] = z.string().describe(`The ${argument}`);
    server.registerTool(
      tool.name,
      { ...(tool.description ? { description: tool.description } : {}), inputSchema: z.object(shape) },
      async (args: Record<string, unknown>) => {
        fake.calls.push({ name: tool.name, args, ...(accessToken ? { accessToken } : {}) });
        const text = tool.answer
          ? tool.answer(args, accessToken ? { accessToken } : {})
          : `${tool.name}(${JSON.stringify(args)})`;
        return { content: [{ type: 'text' as const, text }] };
      },
    );
  }
  return server;
}

/**
 * Handles a request to the MCP endpoint; `authorize` decides first whether it may pass (it
 * answers the refusal itself and returns false when not).
 */
async function handleMcp(
  fake: FakeMcpServer,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  authorize: (request: http.IncomingMessage, response: http.ServerResponse) => string | undefined | false,
) {
  const raw = request.method === 'POST' ? await readBody(request) : '';
  let body: unknown;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    body = undefined;
  }
  fake.seen.push({
    method: request.method ?? 'GET',
    path: new URL(request.url ?? '/', 'http://fake').pathname,
    headers: request.headers,
    rpcMethods: rpcMethodsOf(body),
  });
  if (fake.failWith) {
    response.writeHead(fake.failWith.status, { 'content-type': 'text/plain' });
    response.end(fake.failWith.body);
    return;
  }
  for (const [name, value] of Object.entries(fake.requiredHeaders)) {
    if (request.headers[name.toLowerCase()] !== value) {
      sendJson(response, 401, { error: 'unauthorized', error_description: `Missing or wrong ${name}` });
      return;
    }
  }
  const accessToken = authorize(request, response);
  if (accessToken === false) return;
  if (request.method !== 'POST') {
    // Stateless: no standalone server-to-client stream.
    response.writeHead(405, { allow: 'POST' });
    response.end();
    return;
  }
  const server = mcpServerFor(fake, accessToken);
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
}

/** An MCP server without OAuth (optionally demanding headers, like an API key). */
export async function startFakeMcpServer(
  options: { tools?: FakeMcpTool[]; requiredHeaders?: Record<string, string>; port?: number } = {},
): Promise<FakeMcpServer> {
  let running: RunningHttp | undefined;
  const fake: FakeMcpServer = {
    url: '',
    tools: [...(options.tools ?? defaultTools)],
    seen: [],
    calls: [],
    requiredHeaders: options.requiredHeaders ?? {},
    failWith: null,
    close: async () => running?.close(),
  };
  running = await listen((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    if (path !== '/mcp') {
      sendJson(response, 404, { error: 'not_found' });
      return;
    }
    handleMcp(fake, request, response, () => undefined).catch((error: Error) => {
      if (!response.headersSent) sendJson(response, 500, { error: error.message });
    });
  }, options.port);
  fake.url = `${running.origin}/mcp`;
  return fake;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');
const s256 = (verifier: string) => base64url(createHash('sha256').update(verifier).digest());

/**
 * An MCP server that requires OAuth 2.1, and its authorization server (on another port, as
 * they usually are). Requests without a valid bearer token get 401 with
 * `WWW-Authenticate: Bearer resource_metadata="…"`.
 */
export async function startFakeOAuthMcpServer(
  options: { tools?: FakeMcpTool[]; accessTokenLifetimeSeconds?: number; dynamicRegistration?: boolean } = {},
): Promise<FakeOAuthMcpServer> {
  const accessTokens = new Map<string, { clientId: string }>();
  const refreshTokens = new Map<string, { clientId: string }>();
  const codes = new Map<
    string,
    { clientId: string; redirectUri: string; codeChallenge: string; resource: string | null }
  >();
  let resourceServer: RunningHttp | undefined;
  let authorizationServer: RunningHttp | undefined;

  const fake: FakeOAuthMcpServer = {
    url: '',
    issuer: '',
    tools: [...(options.tools ?? defaultTools)],
    seen: [],
    calls: [],
    requiredHeaders: {},
    failWith: null,
    clients: new Map(),
    grants: [],
    accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? 3600,
    expireAccessTokens: () => accessTokens.clear(),
    authorize: async (authorizeUrl) => {
      const response = await fetch(authorizeUrl, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status !== 302 || !location)
        throw new Error(`authorize refused: ${response.status} ${await response.text()}`);
      return location;
    },
    close: async () => {
      await resourceServer?.close();
      await authorizationServer?.close();
    },
  };

  const issueTokens = (clientId: string, grantType: string) => {
    const accessToken = `at-${base64url(randomBytes(18))}`;
    const refreshToken = `rt-${base64url(randomBytes(18))}`;
    accessTokens.set(accessToken, { clientId });
    refreshTokens.set(refreshToken, { clientId });
    fake.grants.push({ grantType, clientId, accessToken, refreshToken });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: fake.accessTokenLifetimeSeconds,
      refresh_token: refreshToken,
      scope: 'tools',
    };
  };

  /** The client, authenticated by client_secret_basic or client_secret_post; null when it fails. */
  const authenticatedClient = (request: http.IncomingMessage, form: URLSearchParams): string | null => {
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    const authorization = request.headers.authorization;
    if (authorization?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      clientSecret = decodeURIComponent(secret ?? '');
    }
    const client = clientId ? fake.clients.get(clientId) : undefined;
    return client && clientId && client.clientSecret === clientSecret ? clientId : null;
  };

  authorizationServer = await listen((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const issuer = fake.issuer;
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      sendJson(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        ...(options.dynamicRegistration === false ? {} : { registration_endpoint: `${issuer}/register` }),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: ['tools'],
      });
      return;
    }
    if (url.pathname === '/register' && request.method === 'POST') {
      void readBody(request).then((raw) => {
        const metadata = JSON.parse(raw) as { redirect_uris?: string[]; client_name?: string };
        if (!Array.isArray(metadata.redirect_uris) || metadata.redirect_uris.length === 0) {
          sendJson(response, 400, { error: 'invalid_redirect_uri' });
          return;
        }
        const clientId = `client-${base64url(randomBytes(9))}`;
        const clientSecret = `secret-${base64url(randomBytes(18))}`;
        fake.clients.set(clientId, {
          clientSecret,
          redirectUris: metadata.redirect_uris,
          ...(metadata.client_name ? { clientName: metadata.client_name } : {}),
        });
        sendJson(response, 201, {
          ...metadata,
          client_id: clientId,
          client_secret: clientSecret,
          client_id_issued_at: Math.floor(Date.now() / 1000),
          client_secret_expires_at: 0,
          token_endpoint_auth_method: 'client_secret_basic',
        });
      });
      return;
    }
    if (url.pathname === '/authorize' && request.method === 'GET') {
      const query = url.searchParams;
      const clientId = query.get('client_id') ?? '';
      const redirectUri = query.get('redirect_uri') ?? '';
      const client = fake.clients.get(clientId);
      if (!client?.redirectUris.includes(redirectUri)) {
        sendJson(response, 400, {
          error: 'invalid_request',
          error_description: 'Unknown client or redirect',
        });
        return;
      }
      if (query.get('response_type') !== 'code' || query.get('code_challenge_method') !== 'S256') {
        sendJson(response, 400, { error: 'invalid_request', error_description: 'PKCE S256 is required' });
        return;
      }
      const code = `code-${base64url(randomBytes(12))}`;
      codes.set(code, {
        clientId,
        redirectUri,
        codeChallenge: query.get('code_challenge') ?? '',
        resource: query.get('resource'),
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      const state = query.get('state');
      if (state !== null) back.searchParams.set('state', state);
      response.writeHead(302, { location: back.toString() });
      response.end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      void readBody(request).then((raw) => {
        const form = new URLSearchParams(raw);
        const clientId = authenticatedClient(request, form);
        if (!clientId) {
          sendJson(response, 401, { error: 'invalid_client' });
          return;
        }
        const grantType = form.get('grant_type');
        if (grantType === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          if (
            !code ||
            code.clientId !== clientId ||
            code.redirectUri !== form.get('redirect_uri') ||
            s256(verifier) !== code.codeChallenge
          ) {
            sendJson(response, 400, { error: 'invalid_grant', error_description: 'Bad code or verifier' });
            return;
          }
          sendJson(response, 200, issueTokens(clientId, 'authorization_code'), {
            'cache-control': 'no-store',
          });
          return;
        }
        if (grantType === 'refresh_token') {
          const token = form.get('refresh_token') ?? '';
          const known = refreshTokens.get(token);
          if (!known || known.clientId !== clientId) {
            sendJson(response, 400, { error: 'invalid_grant', error_description: 'Unknown refresh token' });
            return;
          }
          // Rotated: the refresh token used is spent.
          refreshTokens.delete(token);
          sendJson(response, 200, issueTokens(clientId, 'refresh_token'), { 'cache-control': 'no-store' });
          return;
        }
        sendJson(response, 400, { error: 'unsupported_grant_type' });
      });
      return;
    }
    sendJson(response, 404, { error: 'not_found' });
  });
  fake.issuer = authorizationServer.origin;

  resourceServer = await listen((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const resourceMetadataUrl = `${resourceServer?.origin}/.well-known/oauth-protected-resource/mcp`;
    if (
      path === '/.well-known/oauth-protected-resource/mcp' ||
      path === '/.well-known/oauth-protected-resource'
    ) {
      sendJson(response, 200, {
        resource: fake.url,
        authorization_servers: [fake.issuer],
        scopes_supported: ['tools'],
        bearer_methods_supported: ['header'],
      });
      return;
    }
    if (path !== '/mcp') {
      sendJson(response, 404, { error: 'not_found' });
      return;
    }
    handleMcp(fake, request, response, (incoming, outgoing) => {
      const authorization = incoming.headers.authorization ?? '';
      const token = authorization.startsWith('Bearer ') ? authorization.slice(7) : '';
      if (token && accessTokens.has(token)) return token;
      outgoing.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", resource_metadata="${resourceMetadataUrl}"`,
      });
      outgoing.end(JSON.stringify({ error: 'invalid_token' }));
      return false;
    }).catch((error: Error) => {
      if (!response.headersSent) sendJson(response, 500, { error: error.message });
    });
  });
  fake.url = `${resourceServer.origin}/mcp`;
  return fake;
}
