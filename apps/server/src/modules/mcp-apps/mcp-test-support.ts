import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

/** A port nobody listens on now, so the app's public URL can be known before it is built. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * The app on a real socket, its public URL the one it listens on: OAuth discovery hands out
 * absolute URLs, which the assistant (here the SDK's client) then calls.
 */
export async function listeningTestApp(): Promise<{ app: TestApp; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = await buildTestApp({ config: { publicApiUrl: baseUrl, appUrl: baseUrl } });
  await app.listen({ host: '127.0.0.1', port });
  return { app, baseUrl };
}

export interface RegisteredMcpApp {
  id: number;
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export const redirectUri = 'http://127.0.0.1:33418/callback';

export async function registerMcpApp(
  app: TestApp,
  adminHeaders: Record<string, string>,
  name = 'Claude',
  redirectUris = [redirectUri],
): Promise<RegisteredMcpApp> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/mcp_apps',
    headers: adminHeaders,
    payload: { name, redirect_uris: redirectUris },
  });
  if (response.statusCode !== 200) throw new Error(`registering failed: ${response.body}`);
  return response.json();
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * What the browser does between the assistant opening the authorization URL and the redirect
 * back: the person, signed in (`headers`), is shown the consent screen and answers it.
 */
export async function consentInBrowser(
  app: TestApp,
  authorizationUrl: string | URL,
  headers: Record<string, string>,
  allow = true,
): Promise<URL> {
  const authorize = await fetch(authorizationUrl, {
    headers: { cookie: headers.cookie ?? '' },
    redirect: 'manual',
  });
  if (authorize.status !== 302)
    throw new Error(`authorize answered ${authorize.status}: ${await authorize.text()}`);
  const consentScreen = new URL(authorize.headers.get('location') ?? '');
  if (consentScreen.pathname !== '/oauth/consent') throw new Error(`sent to ${consentScreen.href}`);
  const asked = Object.fromEntries(consentScreen.searchParams);
  const answer = await app.inject({
    method: 'POST',
    url: '/api/v1/mcp_consent',
    headers,
    payload: { ...asked, allow },
  });
  if (answer.statusCode !== 200) throw new Error(`consent answered ${answer.statusCode}: ${answer.body}`);
  return new URL(answer.json().redirect_url);
}

/** The token endpoint, form-encoded, client_secret_post unless `basic`. */
export async function tokenRequest(
  baseUrl: string,
  parameters: Record<string, string>,
  options: { basic?: { id: string; secret: string } } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.basic) {
    const encoded = Buffer.from(
      `${encodeURIComponent(options.basic.id)}:${encodeURIComponent(options.basic.secret)}`,
    ).toString('base64');
    headers.authorization = `Basic ${encoded}`;
  }
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(parameters).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Tokens for the signed-in person, through the whole flow with a PKCE pair of our own. */
export async function tokensFor(
  app: TestApp,
  baseUrl: string,
  mcpApp: RegisteredMcpApp,
  headers: Record<string, string>,
): Promise<{ access_token: string; refresh_token: string }> {
  const { verifier, challenge } = pkcePair();
  const authorizationUrl = new URL(`${baseUrl}/oauth/authorize`);
  authorizationUrl.search = new URLSearchParams({
    response_type: 'code',
    client_id: mcpApp.client_id,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
  }).toString();
  const back = await consentInBrowser(app, authorizationUrl, headers);
  const exchanged = await tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code') ?? '',
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: mcpApp.client_id,
    client_secret: mcpApp.client_secret,
  });
  if (exchanged.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(exchanged.body)}`);
  return exchanged.body as { access_token: string; refresh_token: string };
}

/** The SDK's own client, sending `token` as its bearer token. */
export async function mcpClientWith(baseUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'letterset-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      authProvider: { token: async () => token },
    }),
  );
  return client;
}

/** The text of a tool's answer, and whether it was a tool error. */
export function textOf(result: { content?: unknown; isError?: unknown }): { text: string; isError: boolean } {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return {
    text: content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join(''),
    isError: result.isError === true,
  };
}

/** A tool's JSON answer; fails the test on a tool error. */
export async function callJson(client: Client, name: string, args: Record<string, unknown>) {
  const { text, isError } = textOf(await client.callTool({ name, arguments: args }));
  if (isError) throw new Error(`${name} failed: ${text}`);
  return JSON.parse(text);
}
