import { createHash } from 'node:crypto';
import type { ConnectorEndpoints } from '../config.ts';
import type { OutboundResponse } from '../security/outbound-fetch.ts';
import { jsonOf, PlatformError, type PlatformHttp, textOf } from './platform-http.ts';

/**
 * Salesforce Marketing Cloud, as far as Letterset uses it: OAuth 2.0 tokens from the tenant's
 * auth host (client credentials, or a refresh token from the authorization-code flow, rotated on
 * every refresh), and Content Builder HTML email assets created or updated in a folder.
 */
export type SalesforceAuthFlow = 'client_credentials' | 'authorization_code';

export interface SalesforceAccount {
  subdomain: string;
  clientId: string;
  clientSecret: string;
  /** The business unit (MID); absent: the unit that owns the installed package. */
  accountId?: string;
  authFlow: SalesforceAuthFlow;
  /** Authorization-code flow only: the latest refresh token. */
  refreshToken?: string;
}

export interface SalesforceEmailContent {
  name: string;
  subject: string;
  preheader: string;
  html: string;
  plainText: string;
  /** Content Builder category (folder) id; absent: the root folder. */
  categoryId?: number;
}

/** Content Builder's limits: asset names 200 characters, customer keys 36. */
export const salesforceAssetNameLimit = 200;
export const salesforceCustomerKeyLimit = 36;

/** What a token grant asks for: reading and writing Content Builder content. */
export const salesforceScopes =
  'saved_content_read saved_content_write documents_and_images_read documents_and_images_write';

/** The tenant subdomain: `mc` and 26 letters, digits or hyphens in practice; checked loosely. */
export const subdomainPattern = '^[a-z0-9][a-z0-9-]{2,62}$';

/**
 * Content Builder in Marketing Cloud's web app. The app's own host depends on the tenant's stack;
 * this address sends a signed-in user to theirs.
 */
export const salesforceContentBuilderUrl = 'https://mc.exacttarget.com/cloud/#app/Content%20Builder';

const htmlEmailAssetType = { id: 208, name: 'htmlemail' };
const refreshMarginMs = 60_000;

interface CachedToken {
  accessToken: string;
  restBaseUrl: string;
  expiresAt: number;
}

/**
 * Access tokens live about 20 minutes; a new one per call would hit the token route's limits.
 * Cached per process by everything that decides who the token is for (the secret included, so a
 * changed secret never reuses a token of the old one).
 */
const tokenCache = new Map<string, CachedToken>();
const tokenRequests = new Map<string, Promise<CachedToken>>();

export interface TokenGrant {
  accessToken: string;
  refreshToken: string | null;
  restBaseUrl: string;
  expiresInSeconds: number;
}

export class SalesforceMarketingCloudClient {
  readonly #account: SalesforceAccount;
  readonly #http: PlatformHttp;
  readonly #endpoints: ConnectorEndpoints;
  readonly #onRefreshTokenRotated: (refreshToken: string) => Promise<void>;
  readonly #cacheKey: string;

  constructor(
    account: SalesforceAccount,
    http: PlatformHttp,
    endpoints: ConnectorEndpoints,
    /** Stores the new refresh token the platform answers each refresh with: the old one stops working. */
    onRefreshTokenRotated: (refreshToken: string) => Promise<void> = async () => {},
  ) {
    this.#account = account;
    this.#http = http;
    this.#endpoints = endpoints;
    this.#onRefreshTokenRotated = onRefreshTokenRotated;
    this.#cacheKey = createHash('sha256')
      .update(
        JSON.stringify([
          this.authBaseUrl,
          account.clientId,
          account.clientSecret,
          account.accountId ?? '',
          account.authFlow,
        ]),
      )
      .digest('hex');
  }

  get authBaseUrl(): string {
    return this.#endpoints.salesforceAuth.replace('{subdomain}', this.#account.subdomain);
  }

  /** Where the browser goes to let Letterset act for the signed-in Marketing Cloud user. */
  authorizationUrl(redirectUri: string, state: string): string {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: this.#account.clientId,
      redirect_uri: redirectUri,
      scope: salesforceScopes,
      state,
    });
    return `${this.authBaseUrl}/v2/authorize?${query}`;
  }

  /** The authorization-code exchange: answers the first refresh token. */
  async exchangeCode(code: string, redirectUri: string): Promise<TokenGrant> {
    return this.#grant({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    });
  }

  /** Gets a token and reads the root of Content Builder: the credentials, the account and the scopes. */
  async checkCredentials(): Promise<void> {
    await this.#rest('GET', '/asset/v1/content/categories?$page=1&$pagesize=1');
  }

  /** The folder's name, or null when there is no such folder. */
  async folderName(categoryId: number): Promise<string | null> {
    try {
      const folder = (await this.#rest('GET', `/asset/v1/content/categories/${categoryId}`)) as {
        name?: string;
      } | null;
      return folder?.name ?? String(categoryId);
    } catch (error) {
      if (error instanceof PlatformError && error.status === 404) return null;
      throw error;
    }
  }

  /** Creates an HTML email ("HTML paste", type 208) asset; answers its id. */
  async createEmailAsset(customerKey: string, content: SalesforceEmailContent): Promise<number> {
    const asset = (await this.#rest('POST', '/asset/v1/content/assets', {
      name: content.name,
      customerKey,
      assetType: htmlEmailAssetType,
      ...(content.categoryId === undefined ? {} : { category: { id: content.categoryId } }),
      channels: { email: true, web: false },
      views: viewsOf(content),
      data: { email: { options: { characterEncoding: 'utf-8' } } },
    })) as { id?: number } | null;
    if (typeof asset?.id !== 'number')
      throw new PlatformError('Marketing Cloud accepted the email but did not say which asset it is');
    return asset.id;
  }

  /** Replaces the name, views and folder of an asset; false when the asset no longer exists. */
  async updateEmailAsset(assetId: number, content: SalesforceEmailContent): Promise<boolean> {
    try {
      await this.#rest('PATCH', `/asset/v1/content/assets/${assetId}`, {
        name: content.name,
        ...(content.categoryId === undefined ? {} : { category: { id: content.categoryId } }),
        views: viewsOf(content),
      });
      return true;
    } catch (error) {
      if (error instanceof PlatformError && error.status === 404) return false;
      throw error;
    }
  }

  /** A REST call with a token; a 401 (expired or revoked token) gets a new token and one more try. */
  async #rest(method: 'GET' | 'POST' | 'PATCH', path: string, body?: object): Promise<unknown> {
    for (let attempt = 1; ; attempt += 1) {
      const token = await this.#token();
      const response = await this.#http.request({
        url: `${token.restBaseUrl}${path}`,
        method,
        headers: {
          authorization: `Bearer ${token.accessToken}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (response.status >= 200 && response.status < 300) return jsonOf(response);
      if (response.status === 401 && attempt === 1) {
        tokenCache.delete(this.#cacheKey);
        continue;
      }
      throw restError(response);
    }
  }

  async #token(): Promise<CachedToken> {
    const cached = tokenCache.get(this.#cacheKey);
    if (cached && cached.expiresAt - refreshMarginMs > Date.now()) return cached;
    // One token request at a time per account: a rotated refresh token can be used only once.
    const pending = tokenRequests.get(this.#cacheKey);
    if (pending) return pending;
    const request = this.#newToken().finally(() => tokenRequests.delete(this.#cacheKey));
    tokenRequests.set(this.#cacheKey, request);
    return request;
  }

  async #newToken(): Promise<CachedToken> {
    let grant: TokenGrant;
    if (this.#account.authFlow === 'authorization_code') {
      if (!this.#account.refreshToken)
        throw new PlatformError(
          'This connector is not connected to Marketing Cloud yet: click Connect on the connector and sign in.',
          { scope: 'account' },
        );
      grant = await this.#grant({ grant_type: 'refresh_token', refresh_token: this.#account.refreshToken });
      if (grant.refreshToken) {
        this.#account.refreshToken = grant.refreshToken;
        await this.#onRefreshTokenRotated(grant.refreshToken);
      }
    } else {
      // No scope: the token gets every scope the installed package has.
      grant = await this.#grant({ grant_type: 'client_credentials' });
    }
    const token = {
      accessToken: grant.accessToken,
      restBaseUrl: grant.restBaseUrl,
      expiresAt: Date.now() + grant.expiresInSeconds * 1000,
    };
    tokenCache.set(this.#cacheKey, token);
    return token;
  }

  async #grant(fields: Record<string, string>): Promise<TokenGrant> {
    const response = await this.#http.request({
      url: `${this.authBaseUrl}/v2/token`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        ...fields,
        client_id: this.#account.clientId,
        client_secret: this.#account.clientSecret,
        ...(this.#account.accountId ? { account_id: this.#account.accountId } : {}),
      }),
    });
    const body = jsonOf(response) as Record<string, unknown> | null;
    if (response.status < 200 || response.status >= 300 || typeof body?.access_token !== 'string')
      throw tokenError(response, body);
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      restBaseUrl: restBaseUrlOf(body.rest_instance_url, this.#endpoints.privateOrigins),
      expiresInSeconds: typeof body.expires_in === 'number' ? body.expires_in : 1080,
    };
  }
}

/**
 * The REST host from a token answer. The docs show it without a scheme or trailing slash, real
 * answers have both; only Marketing Cloud's own hosts (or the fakes of tests) are used.
 */
export function restBaseUrlOf(given: unknown, privateOrigins: readonly string[]): string {
  if (typeof given !== 'string' || given.trim() === '')
    throw new PlatformError('Marketing Cloud did not say where its REST API is for this account');
  const withScheme = /^https?:\/\//i.test(given) ? given : `https://${given}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new PlatformError('Marketing Cloud answered a REST address that is not a URL');
  }
  const trusted =
    (url.protocol === 'https:' && url.hostname.endsWith('.marketingcloudapis.com')) ||
    privateOrigins.includes(url.origin);
  if (!trusted)
    throw new PlatformError(`Marketing Cloud answered a REST address outside its own hosts (${url.host})`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function viewsOf(content: SalesforceEmailContent) {
  return {
    html: { content: content.html },
    text: { content: content.plainText },
    subjectline: { content: content.subject },
    preheader: { content: content.preheader },
  };
}

/** OAuth errors: `{error, error_description}`. */
function tokenError(response: OutboundResponse, body: Record<string, unknown> | null): PlatformError {
  const status = response.status;
  const error = typeof body?.error === 'string' ? body.error : '';
  if (error === 'invalid_client' || error === 'unauthorized_client' || status === 401)
    return new PlatformError(
      'Marketing Cloud refused the client id or secret. Check them, the subdomain and the account id (MID), and that the installed package is enabled.',
      { status, scope: 'account' },
    );
  if (error === 'invalid_grant')
    return new PlatformError(
      'Marketing Cloud no longer accepts this connector’s sign-in (it expired or was revoked): click Connect on the connector and sign in again.',
      { status, scope: 'account' },
    );
  if (status === 429 || status >= 500)
    return new PlatformError(
      `Marketing Cloud’s sign-in service is unavailable (${status}); export again in a few minutes.`,
      { status, scope: 'account' },
    );
  const description = typeof body?.error_description === 'string' ? body.error_description : textOf(response);
  return new PlatformError(`Marketing Cloud refused the sign-in: ${description || `HTTP ${status}`}`, {
    status,
    scope: 'account',
  });
}

/** REST errors: `{message, errorcode, validationErrors?, errors?}`, or an HTML page. */
function restError(response: OutboundResponse): PlatformError {
  const status = response.status;
  const body = jsonOf(response) as {
    message?: unknown;
    errorcode?: unknown;
    errors?: { message?: unknown }[];
    validationErrors?: { message?: unknown; errorcode?: unknown }[];
  } | null;
  const messages = [
    ...(body?.errors ?? []).map((error) => error.message),
    ...(body?.validationErrors ?? []).map((error) => error.message),
    body?.message,
  ]
    .filter((message): message is string => typeof message === 'string' && message.trim() !== '')
    .map((message) => message.replace(/<br\s*\/?>/gi, ' ').trim());
  const detail = messages[0] ?? textOf(response);
  const codes = [body?.errorcode, ...(body?.validationErrors ?? []).map((error) => error.errorcode)];
  if (codes.includes(118039))
    return new PlatformError(
      `Marketing Cloud already has an email of that name in the folder: ${detail} Choose another name, or update the previous export.`,
      { status },
    );
  if (status === 401)
    return new PlatformError('Marketing Cloud refused the access token even after a new one was issued.', {
      status,
      scope: 'account',
    });
  if (status === 403)
    return new PlatformError(
      'Marketing Cloud refused the request: the installed package (or the signed-in user) lacks Content Builder permissions (saved content and documents and images, read and write).',
      { status, scope: 'account' },
    );
  if (status === 404) return new PlatformError(`Marketing Cloud has no such item: ${detail}`, { status });
  if (status === 429)
    return new PlatformError(
      'Marketing Cloud is rate limiting requests and still was after several tries; export again in a minute.',
      { status },
    );
  if (status >= 500)
    return new PlatformError(
      `Marketing Cloud had a problem of its own (${status}${detail ? `: ${detail}` : ''}). Export again later.`,
      { status },
    );
  return new PlatformError(`Marketing Cloud refused the email: ${detail || `HTTP ${status}`}`, { status });
}
