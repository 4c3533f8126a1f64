import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { mcpAccessTokens, mcpApps, mcpAuthorizationCodes, users } from '../../db/schema.ts';
import { mcpAccessTokenPrefix } from '../../http/access.ts';
import { randomToken, tokenDigest } from '../../security/tokens.ts';
import type { Services } from '../../services.ts';

/** How long each credential of the flow lasts. */
export const authorizationCodeLifetimeMs = 5 * 60 * 1000;
export const accessTokenLifetimeSeconds = 60 * 60;
/** From the last refresh: a connection in use keeps working; one idle this long needs consent again. */
export const refreshTokenLifetimeMs = 30 * 24 * 60 * 60 * 1000;

export const clientIdPrefix = 'lsci_';
export const clientSecretPrefix = 'lscs_';
export const refreshTokenPrefix = 'lsrt_';

type McpAppRow = typeof mcpApps.$inferSelect;

/** Letterset is its own authorization server: the issuer is the API's public origin. */
export function issuerOf(config: Config): string {
  return config.publicApiUrl.replace(/\/+$/, '');
}

/** The protected resource: the MCP endpoint, as RFC 9728 and RFC 8707 name it. */
export function mcpResourceOf(config: Config): string {
  return `${issuerOf(config)}/mcp`;
}

export function protectedResourceMetadataUrl(config: Config): string {
  return `${issuerOf(config)}/.well-known/oauth-protected-resource`;
}

/** RFC 9728. */
export function protectedResourceMetadata(config: Config) {
  return {
    resource: mcpResourceOf(config),
    authorization_servers: [issuerOf(config)],
    bearer_methods_supported: ['header'],
    resource_name: 'Letterset',
    resource_documentation: `${issuerOf(config)}/openapi.yml`,
  };
}

/** RFC 8414. There is no registration endpoint: an Admin registers each app in Settings › MCP apps. */
export function authorizationServerMetadata(config: Config) {
  const issuer = issuerOf(config);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    authorization_response_iss_parameter_supported: true,
  };
}

/** Schemes a redirect URI may never use: they run or read things in the browser itself. */
const forbiddenSchemes = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'about:', 'blob:', 'ftp:']);
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect URI cannot be registered, or null. https anywhere; plain http only on this
 * machine (desktop apps listen on a loopback port); a desktop app's own scheme (cursor://…).
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash !== '' || uri.includes('#')) return 'must not have a fragment (#…)';
  if (url.username !== '' || url.password !== '') return 'must not hold a user name or password';
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host';
  if (url.protocol === 'http:') {
    return loopbackHosts.has(url.hostname)
      ? null
      : 'must use https (plain http only for localhost, 127.0.0.1 or [::1])';
  }
  if (forbiddenSchemes.has(url.protocol) || url.protocol === 'ws:' || url.protocol === 'wss:') {
    return `must not use ${url.protocol}`;
  }
  return null;
}

/**
 * Whether `requested` is one of the app's redirect URIs: the same text, except that a loopback
 * http URI may name any port (RFC 8252 §7.3: desktop apps listen on whatever port is free).
 */
export function redirectUriRegistered(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !loopbackHosts.has(asked.hostname)) return false;
  const withoutPort = (url: URL) => `${url.protocol}//${url.hostname}${url.pathname}${url.search}`;
  return registered.some((candidate) => {
    try {
      const url = new URL(candidate);
      return url.protocol === 'http:' && withoutPort(url) === withoutPort(asked) && !candidate.includes('#');
    } catch {
      return false;
    }
  });
}

/** RFC 8707: a resource named in the request must be this server's MCP endpoint (or the server). */
export function resourceAccepted(config: Config, resource: string | undefined): boolean {
  if (resource === undefined || resource === '') return true;
  const normalized = resource.replace(/\/+$/, '');
  return normalized === mcpResourceOf(config) || normalized === issuerOf(config);
}

export const codeChallengePattern = /^[A-Za-z0-9_-]{43}$/;
const codeVerifierPattern = /^[A-Za-z0-9._~-]{43,128}$/;

/** PKCE S256: BASE64URL(SHA-256(verifier)) must be the challenge the code was bound to. */
export function pkceVerifies(verifier: string, challenge: string): boolean {
  if (!codeVerifierPattern.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** The redirect URI with query parameters added (it may already have a query of its own). */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}

/** An error of the token endpoint, answered in OAuth's JSON format (RFC 6749 §5.2). */
export class OAuthError extends Error {
  readonly code: string;
  readonly status: 400 | 401;
  /** The refusal revoked tokens (a reused code): cached callers must be forgotten. */
  readonly revokedTokens: boolean;

  constructor(code: string, description: string, status: 400 | 401 = 400, revokedTokens = false) {
    super(description);
    this.code = code;
    this.status = status;
    this.revokedTokens = revokedTokens;
  }

  toBody() {
    return { error: this.code, error_description: this.message };
  }
}

export async function findAppByClientId(
  services: Pick<Services, 'database'>,
  clientId: string,
): Promise<McpAppRow | undefined> {
  const [row] = await services.database.db.select().from(mcpApps).where(eq(mcpApps.clientId, clientId));
  return row;
}

function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(tokenDigest(secret));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Sent as HTTP Basic: a refusal then asks for Basic again (RFC 6749 §5.2). */
  viaBasic: boolean;
}

/** client_secret_basic (`Authorization: Basic`) or client_secret_post (form fields), not both. */
export function clientCredentialsOf(
  authorization: string | undefined,
  form: Record<string, string | undefined>,
): ClientCredentials {
  if (authorization !== undefined) {
    const [scheme, encoded] = authorization.split(' ');
    if (scheme?.toLowerCase() !== 'basic' || !encoded) {
      throw new OAuthError('invalid_client', 'Authenticate the client with HTTP Basic or in the form', 401);
    }
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'The Basic credentials are malformed', 401);
    if (form.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'Send the client secret one way only: Basic or the form');
    }
    const decode = (text: string) => {
      try {
        return decodeURIComponent(text.replaceAll('+', ' '));
      } catch {
        return text;
      }
    };
    return {
      clientId: decode(decoded.slice(0, colon)),
      clientSecret: decode(decoded.slice(colon + 1)),
      viaBasic: true,
    };
  }
  return { clientId: form.client_id, clientSecret: form.client_secret, viaBasic: false };
}

/** The app whose id and secret these are; `invalid_client` (401) otherwise. */
export async function authenticateClient(
  services: Pick<Services, 'database'>,
  credentials: ClientCredentials,
): Promise<McpAppRow> {
  const refuse = () => new OAuthError('invalid_client', 'Unknown client or wrong client secret', 401);
  if (!credentials.clientId || !credentials.clientSecret) {
    throw new OAuthError('invalid_client', 'The client id and client secret are required', 401);
  }
  if (credentials.clientId.length > 100) throw refuse();
  const client = await findAppByClientId(services, credentials.clientId);
  if (!client || !secretMatches(credentials.clientSecret, client.clientSecretHash)) throw refuse();
  return client;
}

/** A one-time code bound to the user, the redirect URI and the PKCE challenge. */
export async function issueAuthorizationCode(
  services: Pick<Services, 'database'>,
  input: { mcpAppId: number; userId: number; codeChallenge: string; redirectUri: string },
): Promise<string> {
  const code = randomToken();
  await services.database.db
    .delete(mcpAuthorizationCodes)
    .where(lt(mcpAuthorizationCodes.expiresAt, sql`now()`));
  await services.database.db.insert(mcpAuthorizationCodes).values({
    codeHash: tokenDigest(code),
    mcpAppId: input.mcpAppId,
    userId: input.userId,
    codeChallenge: input.codeChallenge,
    redirectUri: input.redirectUri,
    expiresAt: new Date(Date.now() + authorizationCodeLifetimeMs),
  });
  return code;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

async function insertTokens(
  db: Pick<Database, 'insert' | 'delete'>,
  grant: { mcpAppId: number; userId: number; authorizationCodeHash: string | null },
): Promise<TokenResponse> {
  // Pairs whose refresh token has expired can never be used again (revoked ones go at that time too).
  await db.delete(mcpAccessTokens).where(lt(mcpAccessTokens.refreshExpiresAt, sql`now()`));
  const accessToken = `${mcpAccessTokenPrefix}${randomToken()}`;
  const refreshToken = `${refreshTokenPrefix}${randomToken()}`;
  const now = Date.now();
  await db.insert(mcpAccessTokens).values({
    ...grant,
    accessTokenHash: tokenDigest(accessToken),
    refreshTokenHash: tokenDigest(refreshToken),
    expiresAt: new Date(now + accessTokenLifetimeSeconds * 1000),
    refreshExpiresAt: new Date(now + refreshTokenLifetimeMs),
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: accessTokenLifetimeSeconds,
    refresh_token: refreshToken,
  };
}

/** The user still exists, is not removed, and belongs to the app's organization. */
async function userStillMayConnect(
  db: Pick<Database, 'select'>,
  userId: number,
  client: McpAppRow,
): Promise<boolean> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(users.id, userId), eq(users.organizationId, client.organizationId), isNull(users.deletedAt)),
    );
  return user !== undefined;
}

/**
 * grant_type=authorization_code: the code is used once, by its app, with its redirect URI and
 * verifier; a refused exchange uses it up too. A code presented again was most likely stolen: the tokens it led to are revoked
 * (OAuth 2.1 §4.1.3), so whoever holds them, the thief or the app, must ask the person again.
 */
export async function exchangeAuthorizationCode(
  services: Pick<Services, 'database' | 'config'>,
  client: McpAppRow,
  form: Record<string, string | undefined>,
): Promise<TokenResponse> {
  const { code, redirect_uri: redirectUri, code_verifier: codeVerifier } = form;
  if (!code) throw new OAuthError('invalid_request', 'code is required');
  if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
  if (!codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
  if (!resourceAccepted(services.config, form.resource)) {
    throw new OAuthError('invalid_target', `resource must be ${mcpResourceOf(services.config)}`);
  }
  const invalid = (why: string) => new OAuthError('invalid_grant', why);
  const codeHash = tokenDigest(code);
  const exchanged = await services.database.db.transaction(async (tx) => {
    const [stored] = await tx
      .select()
      .from(mcpAuthorizationCodes)
      .where(eq(mcpAuthorizationCodes.codeHash, codeHash));
    if (!stored) throw invalid('The authorization code is not valid');
    if (stored.usedAt !== null) return 'reused' as const;
    // Marked used in the same statement that checks it: of two racing exchanges, one wins. Used up
    // before the request is judged, and kept used when it is refused: a code presented with a wrong
    // verifier or redirect URI is in hands other than its app's, and must not be tried again (a
    // wrong verifier could otherwise be followed by more guesses, or by the right one).
    const consumed = await tx
      .update(mcpAuthorizationCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(mcpAuthorizationCodes.codeHash, codeHash), isNull(mcpAuthorizationCodes.usedAt)))
      .returning({ codeHash: mcpAuthorizationCodes.codeHash });
    if (consumed.length === 0) return 'reused' as const;
    let refusal: string | undefined;
    if (stored.mcpAppId !== client.id) refusal = 'The authorization code is not valid';
    else if (stored.expiresAt.getTime() <= Date.now()) refusal = 'The authorization code has expired';
    else if (stored.redirectUri !== redirectUri)
      refusal = 'redirect_uri is not the one the code was issued for';
    else if (!pkceVerifies(codeVerifier, stored.codeChallenge))
      refusal = 'code_verifier does not match the code_challenge (PKCE S256)';
    else if (!(await userStillMayConnect(tx, stored.userId, client)))
      refusal = 'The person who consented can no longer sign in';
    // Returned rather than thrown: a throw would roll the code's use back.
    if (refusal !== undefined) return { refusal };
    return insertTokens(tx, { mcpAppId: client.id, userId: stored.userId, authorizationCodeHash: codeHash });
  });
  if (typeof exchanged === 'object' && 'refusal' in exchanged) throw invalid(exchanged.refusal);
  if (exchanged !== 'reused') return exchanged;
  await services.database.db
    .update(mcpAccessTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(mcpAccessTokens.authorizationCodeHash, codeHash), isNull(mcpAccessTokens.revokedAt)));
  throw new OAuthError(
    'invalid_grant',
    'The authorization code was already used: the tokens issued for it are revoked',
    400,
    true,
  );
}

/** grant_type=refresh_token: the refresh token is rotated; the old pair stops working. */
export async function refreshTokens(
  services: Pick<Services, 'database' | 'config'>,
  client: McpAppRow,
  form: Record<string, string | undefined>,
): Promise<TokenResponse> {
  const refreshToken = form.refresh_token;
  if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
  if (!resourceAccepted(services.config, form.resource)) {
    throw new OAuthError('invalid_target', `resource must be ${mcpResourceOf(services.config)}`);
  }
  const invalid = new OAuthError(
    'invalid_grant',
    'The refresh token is not valid: it may have expired or been used',
  );
  return services.database.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(mcpAccessTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(mcpAccessTokens.refreshTokenHash, tokenDigest(refreshToken)),
          eq(mcpAccessTokens.mcpAppId, client.id),
          isNull(mcpAccessTokens.revokedAt),
          gt(mcpAccessTokens.refreshExpiresAt, sql`now()`),
        ),
      )
      .returning({
        userId: mcpAccessTokens.userId,
        authorizationCodeHash: mcpAccessTokens.authorizationCodeHash,
      });
    if (!revoked) throw invalid;
    if (!(await userStillMayConnect(tx, revoked.userId, client))) throw invalid;
    // The new pair keeps its grant's code: a late reuse of the code still reaches it.
    return insertTokens(tx, { mcpAppId: client.id, ...revoked });
  });
}
