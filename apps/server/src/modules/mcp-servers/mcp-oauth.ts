import {
  type AuthorizationServerMetadata,
  discoverOAuthServerInfo,
  exchangeAuthorization,
  type OAuthClientInformationMixed,
  OAuthError,
  type OAuthTokens,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/client';
import { and, eq } from 'drizzle-orm';
import { enabledMcpServers, mcpServers } from '../../db/schema.ts';
import { OutboundFetchError } from '../../security/outbound-fetch.ts';
import { SecretsError } from '../../security/secrets.ts';
import type { Services } from '../../services.ts';
import { type McpServerRow, mcpFetch } from './mcp-connection.ts';

/**
 * OAuth 2.1 for MCP servers that require it (the MCP authorization spec): the server's 401
 * points at its protected resource metadata (RFC 9728), which names the authorization server
 * (RFC 8414 metadata); Letterset registers itself there once per MCP server by dynamic client
 * registration (RFC 7591), then each person signs in with the authorization code flow and PKCE
 * (S256). Their tokens are sealed on their enabled MCP server and refreshed when they expire.
 */

/** What an MCP server's OAuth needs, kept in `mcp_servers.oauth_settings`. */
export interface McpOAuthSettings {
  authorizationServerUrl: string;
  authorizationServerMetadata: AuthorizationServerMetadata;
  /** The protected resource's identifier (RFC 8707 `resource` parameter). */
  resource: string;
  resourceMetadataUrl?: string;
  scope?: string;
  /** The redirect URI Letterset registered; a change of PUBLIC_API_URL registers again. */
  redirectUri?: string;
  /** Letterset's registration at the authorization server; the secret sealed. */
  client?: {
    client_id: string;
    sealed_client_secret?: string;
    token_endpoint_auth_method?: string;
    client_secret_expires_at?: number;
  };
}

/** Access and refresh tokens as stored (sealed) on an enabled MCP server. */
interface StoredTokens {
  access_token: string;
  token_type?: string;
  refresh_token?: string;
  scope?: string;
}

const tokensPurpose = 'mcp-oauth-tokens';
const clientSecretPurpose = 'mcp-oauth-client-secret';
const statePurpose = 'mcp-oauth-state';
/** How long a Connect link works. */
const stateLifetimeMs = 15 * 60 * 1000;
/** Tokens this close to expiry are refreshed first: a chat turn may take a while. */
const refreshMarginMs = 60 * 1000;

export const mcpOAuthCallbackPath = '/api/v1/mcp_oauth/callback';

export function mcpOAuthRedirectUri(services: Pick<Services, 'config'>): string {
  return `${services.config.publicApiUrl}${mcpOAuthCallbackPath}`;
}

/** An OAuth step that failed, in words a person can act on. */
export class McpOAuthError extends Error {
  /** The authorization server refused the grant: the person must connect again. */
  readonly grantRefused: boolean;
  constructor(message: string, grantRefused = false) {
    super(message);
    this.name = 'McpOAuthError';
    this.grantRefused = grantRefused;
  }
}

function describe(error: unknown, step: string): McpOAuthError {
  if (error instanceof McpOAuthError) return error;
  if (error instanceof OAuthError) {
    const refused = error.code === 'invalid_grant' || error.code === 'invalid_client';
    return new McpOAuthError(
      `${step}: the authorization server answered ${error.code} (${error.message})`,
      refused,
    );
  }
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth += 1) {
    if (cause instanceof OutboundFetchError) return new McpOAuthError(`${step}: ${cause.message}`);
    cause = cause.cause;
  }
  return new McpOAuthError(`${step}: ${error instanceof Error ? error.message : String(error)}`);
}

export function oauthSettingsOf(row: Pick<McpServerRow, 'oauthSettings'>): McpOAuthSettings | null {
  const settings = row.oauthSettings as McpOAuthSettings | null;
  return settings?.authorizationServerMetadata ? settings : null;
}

function clientInformation(services: Pick<Services, 'secrets'>, settings: McpOAuthSettings) {
  const client = settings.client;
  if (!client)
    throw new McpOAuthError(
      'Letterset is not registered with the authorization server: run the health check',
    );
  const information: OAuthClientInformationMixed = { client_id: client.client_id };
  if (client.sealed_client_secret)
    information.client_secret = services.secrets.open(client.sealed_client_secret, clientSecretPurpose);
  if (client.token_endpoint_auth_method)
    (information as { token_endpoint_auth_method?: string }).token_endpoint_auth_method =
      client.token_endpoint_auth_method;
  return information;
}

/**
 * After a 401: finds the authorization server through the protected resource metadata, and
 * registers Letterset with it unless it already is (with the same redirect URI). Null when the
 * server offers no OAuth metadata (its 401 is about something else, such as a missing API key).
 */
export async function discoverOAuth(
  services: Pick<Services, 'config' | 'secrets'>,
  server: Pick<McpServerRow, 'url' | 'oauthSettings'>,
  challenge: { resourceMetadataUrl?: URL; scope?: string } = {},
): Promise<McpOAuthSettings | null> {
  const fetchFn = mcpFetch(services);
  let info: Awaited<ReturnType<typeof discoverOAuthServerInfo>>;
  try {
    info = await discoverOAuthServerInfo(server.url, {
      fetchFn,
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    });
  } catch (error) {
    throw describe(error, 'Finding the authorization server failed');
  }
  if (!info.authorizationServerMetadata) return null;
  const metadata = info.authorizationServerMetadata;
  // The MCP authorization spec: without PKCE S256 advertised, a client must not go on.
  if (!metadata.code_challenge_methods_supported?.includes('S256'))
    throw new McpOAuthError(
      'The authorization server does not support PKCE with S256, which Letterset requires to connect to it',
    );
  const redirectUri = mcpOAuthRedirectUri(services);
  const scope = challenge.scope ?? info.resourceMetadata?.scopes_supported?.join(' ');
  const settings: McpOAuthSettings = {
    authorizationServerUrl: info.authorizationServerUrl,
    authorizationServerMetadata: metadata,
    resource: info.resourceMetadata?.resource ?? server.url,
    ...(challenge.resourceMetadataUrl
      ? { resourceMetadataUrl: challenge.resourceMetadataUrl.toString() }
      : {}),
    ...(scope ? { scope } : {}),
  };
  const previous = oauthSettingsOf(server);
  const reusable =
    previous?.client &&
    previous.authorizationServerUrl === settings.authorizationServerUrl &&
    previous.redirectUri === redirectUri &&
    !(
      previous.client.client_secret_expires_at && previous.client.client_secret_expires_at * 1000 < Date.now()
    );
  if (reusable && previous.client) return { ...settings, redirectUri, client: previous.client };
  if (!metadata.registration_endpoint)
    throw new McpOAuthError(
      'The authorization server does not offer dynamic client registration, which Letterset needs to connect to it',
    );
  try {
    const registered = await registerClient(settings.authorizationServerUrl, {
      metadata,
      clientMetadata: {
        client_name: 'Letterset',
        client_uri: services.config.appUrl,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      ...(scope ? { scope } : {}),
      fetchFn,
    });
    return {
      ...settings,
      redirectUri,
      client: {
        client_id: registered.client_id,
        ...(registered.client_secret
          ? { sealed_client_secret: services.secrets.seal(registered.client_secret, clientSecretPurpose) }
          : {}),
        ...(registered.token_endpoint_auth_method
          ? { token_endpoint_auth_method: registered.token_endpoint_auth_method }
          : {}),
        ...(registered.client_secret_expires_at
          ? { client_secret_expires_at: registered.client_secret_expires_at }
          : {}),
      },
    };
  } catch (error) {
    throw describe(error, 'Registering Letterset with the authorization server failed');
  }
}

/** Who a Connect link is for, sealed into its `state`, with the PKCE verifier. */
interface OAuthState {
  mcpServerId: number;
  workspaceId: number;
  organizationId: number;
  userId: number;
  codeVerifier: string;
  afterOauthRedirectUrl: string | null;
  expiresAt: number;
}

/**
 * The authorization server's authorize URL for this person: PKCE S256, and a `state` that seals
 * who is connecting and the code verifier (so nothing is written until they come back).
 */
export async function startOAuthFlowUrl(
  services: Pick<Services, 'config' | 'secrets'>,
  server: McpServerRow,
  who: { userId: number; afterOauthRedirectUrl: string | null },
): Promise<string | null> {
  const settings = oauthSettingsOf(server);
  if (!server.oauth || !settings?.client) return null;
  let started: Awaited<ReturnType<typeof startAuthorization>>;
  try {
    started = await startAuthorization(settings.authorizationServerUrl, {
      metadata: settings.authorizationServerMetadata,
      clientInformation: clientInformation(services, settings),
      redirectUrl: mcpOAuthRedirectUri(services),
      resource: settings.resource,
      ...(settings.scope ? { scope: settings.scope } : {}),
      state: 'placeholder',
    });
  } catch {
    // An authorization server without the code flow or S256, or a client secret sealed with
    // another key: there is no link to offer; the health check says what is wrong.
    return null;
  }
  const state: OAuthState = {
    mcpServerId: server.id,
    workspaceId: server.workspaceId,
    organizationId: server.organizationId,
    userId: who.userId,
    codeVerifier: started.codeVerifier,
    afterOauthRedirectUrl: who.afterOauthRedirectUrl,
    expiresAt: Date.now() + stateLifetimeMs,
  };
  started.authorizationUrl.searchParams.set(
    'state',
    services.secrets.seal(JSON.stringify(state), statePurpose),
  );
  return started.authorizationUrl.toString();
}

/** The person the state was made for and where to send them back, or null when it is not ours. */
export function readOAuthState(services: Pick<Services, 'secrets'>, sealed: string): OAuthState | null {
  try {
    const state = JSON.parse(services.secrets.open(sealed, statePurpose)) as OAuthState;
    return typeof state.mcpServerId === 'number' ? state : null;
  } catch (error) {
    if (error instanceof SecretsError || error instanceof SyntaxError) return null;
    throw error;
  }
}

export function isExpired(state: OAuthState): boolean {
  return state.expiresAt < Date.now();
}

function sealTokens(services: Pick<Services, 'secrets'>, tokens: OAuthTokens, previous?: StoredTokens) {
  const stored: StoredTokens = {
    access_token: tokens.access_token,
    ...(tokens.token_type ? { token_type: tokens.token_type } : {}),
    // A refresh that answers no new refresh token keeps the old one (RFC 6749 §6).
    ...((tokens.refresh_token ?? previous?.refresh_token)
      ? { refresh_token: tokens.refresh_token ?? previous?.refresh_token }
      : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
  };
  return {
    sealedTokens: services.secrets.seal(JSON.stringify(stored), tokensPurpose),
    tokensExpireAt: tokens.expires_in ? new Date(Date.now() + tokens.expires_in * 1000) : null,
  };
}

function openTokens(services: Pick<Services, 'secrets'>, sealed: string | null): StoredTokens | null {
  if (!sealed) return null;
  try {
    return JSON.parse(services.secrets.open(sealed, tokensPurpose)) as StoredTokens;
  } catch (error) {
    if (error instanceof SecretsError) return null;
    throw error;
  }
}

/**
 * The end of the flow: the authorization server sent the person back with a code. The code is
 * exchanged (with the PKCE verifier) and the tokens sealed on their enabled MCP server, which is
 * created if they connected from the server itself.
 */
export async function completeOAuthFlow(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  state: OAuthState,
  callback: { code: string; iss?: string | undefined },
): Promise<void> {
  const [server] = await services.database.db
    .select()
    .from(mcpServers)
    .where(
      and(
        eq(mcpServers.id, state.mcpServerId),
        eq(mcpServers.workspaceId, state.workspaceId),
        eq(mcpServers.organizationId, state.organizationId),
      ),
    );
  const settings = server ? oauthSettingsOf(server) : null;
  if (!server || !settings?.client)
    throw new McpOAuthError('This MCP server no longer exists or no longer uses OAuth');
  let tokens: OAuthTokens;
  try {
    tokens = await exchangeAuthorization(settings.authorizationServerUrl, {
      metadata: settings.authorizationServerMetadata,
      clientInformation: clientInformation(services, settings),
      authorizationCode: callback.code,
      ...(callback.iss ? { iss: callback.iss } : {}),
      codeVerifier: state.codeVerifier,
      redirectUri: mcpOAuthRedirectUri(services),
      resource: settings.resource,
      fetchFn: mcpFetch(services),
    });
  } catch (error) {
    throw describe(error, 'Exchanging the sign-in code failed');
  }
  const sealed = sealTokens(services, tokens);
  await services.database.db
    .insert(enabledMcpServers)
    .values({
      organizationId: server.organizationId,
      workspaceId: server.workspaceId,
      userId: state.userId,
      mcpServerId: server.id,
      enabled: true,
      ...sealed,
      sealedOauthFlow: null,
      afterOauthRedirectUrl: state.afterOauthRedirectUrl,
    })
    .onConflictDoUpdate({
      target: [enabledMcpServers.userId, enabledMcpServers.mcpServerId],
      set: { enabled: true, ...sealed, sealedOauthFlow: null, updatedAt: new Date() },
    });
}

type EnabledRow = typeof enabledMcpServers.$inferSelect;

/**
 * A working access token of this person for this server: the stored one, or a refreshed one
 * when it expires soon (or `force`, after the server refused it). Null when they have not
 * connected, or when the authorization server refused the refresh (they are then disconnected
 * and must connect again).
 */
export async function accessTokenFor(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  server: McpServerRow,
  enabled: EnabledRow,
  options: { force?: boolean } = {},
): Promise<string | null> {
  const tokens = openTokens(services, enabled.sealedTokens);
  if (!tokens) return null;
  const expiresSoon =
    enabled.tokensExpireAt !== null && enabled.tokensExpireAt.getTime() - refreshMarginMs < Date.now();
  if (!expiresSoon && !options.force) return tokens.access_token;
  const settings = oauthSettingsOf(server);
  if (!tokens.refresh_token || !settings?.client) {
    if (expiresSoon) await disconnect(services, enabled.id);
    return expiresSoon ? null : tokens.access_token;
  }
  let refreshed: OAuthTokens;
  try {
    refreshed = await refreshAuthorization(settings.authorizationServerUrl, {
      metadata: settings.authorizationServerMetadata,
      clientInformation: clientInformation(services, settings),
      refreshToken: tokens.refresh_token,
      resource: settings.resource,
      fetchFn: mcpFetch(services),
    });
  } catch (error) {
    const failure = describe(error, 'Refreshing the access token failed');
    // Another request may have refreshed (and rotated) the tokens meanwhile: use theirs.
    const [current] = await services.database.db
      .select()
      .from(enabledMcpServers)
      .where(eq(enabledMcpServers.id, enabled.id));
    if (current?.sealedTokens && current.sealedTokens !== enabled.sealedTokens)
      return openTokens(services, current.sealedTokens)?.access_token ?? null;
    if (failure.grantRefused) {
      await disconnect(services, enabled.id);
      return null;
    }
    throw failure;
  }
  const sealed = sealTokens(services, refreshed, tokens);
  await services.database.db
    .update(enabledMcpServers)
    .set({ ...sealed, updatedAt: new Date() })
    .where(eq(enabledMcpServers.id, enabled.id));
  return refreshed.access_token;
}

/** Forgets a person's tokens: they connect again to use the server. */
async function disconnect(services: Pick<Services, 'database'>, enabledId: number) {
  await services.database.db
    .update(enabledMcpServers)
    .set({ enabled: false, sealedTokens: null, tokensExpireAt: null, updatedAt: new Date() })
    .where(eq(enabledMcpServers.id, enabledId));
}
