import { randomBytes } from 'node:crypto';
import {
  bodyJson,
  type FakeAnswer,
  type ForcedAnswer,
  json,
  type SeenRequest,
  startFakeServer,
} from './fake-http.ts';

/**
 * A fake Salesforce Marketing Cloud tenant, auth and REST roles on one loopback server, faithful
 * to the connectors reference (§2 and the checklist of §3): `/v2/token` with the three grants
 * (refresh tokens rotate; a reused one is `invalid_grant`), `/v2/authorize` redirecting to a
 * registered URI, Bearer tokens that expire, Content Builder assets (unique names per folder and
 * type: 118039; unique customer keys of at most 36 characters) and categories in the
 * `{count, page, pageSize, links, items}` envelope, and the REST error bodies.
 */
export interface FakeSalesforceClient {
  secret: string;
  redirectUris: string[];
  /** Scopes the installed package grants; writes without `saved_content_write` are 403 20002. */
  scopes: string[];
}

export interface FakeAsset {
  id: number;
  customerKey: string;
  name: string;
  assetType: { id: number; name: string };
  category: { id: number; name: string; parentId: number };
  views: Record<string, { content: string }>;
  createdDate: string;
  modifiedDate: string;
  /** The client whose token wrote it last: tests check which account (MID) was used. */
  accountId: string | null;
}

interface Token {
  clientId: string;
  accountId: string | null;
  expiresAt: number;
}

const documentation =
  'https://developer.salesforce.com/docs/atlas.en-us.mc-apis.meta/mc-apis/error-handling.htm';
const notAuthorized = () => json(401, { message: 'Not Authorized', errorcode: 0, documentation });
const restError = (status: number, errorcode: number, message: string) =>
  json(status, { message, errorcode, documentation });
const assetTypeNames: Record<number, string> = {
  207: 'templatebasedemail',
  208: 'htmlemail',
  209: 'textonlyemail',
};

export interface FakeSalesforce {
  url: string;
  seen: SeenRequest[];
  force(answer: ForcedAnswer): void;
  addClient(clientId: string, client: Partial<FakeSalesforceClient> & { secret: string }): void;
  assets: FakeAsset[];
  categories: { id: number; name: string; parentId: number; categoryType: string }[];
  rootCategoryId: number;
  /** Makes every access token issued so far expired (as 20 minutes later). */
  expireTokens(): void;
  /** The refresh tokens issued and not yet used, newest last. */
  liveRefreshTokens(): string[];
  close(): Promise<void>;
}

export async function startFakeSalesforce(port = 0): Promise<FakeSalesforce> {
  const clients = new Map<string, FakeSalesforceClient>();
  const tokens = new Map<string, Token>();
  const codes = new Map<string, { clientId: string; redirectUri: string }>();
  const refreshTokens = new Map<string, { clientId: string; used: boolean }>();
  const rootCategoryId = 89_397;
  const categories = [{ id: rootCategoryId, name: 'Content Builder', parentId: 0, categoryType: 'asset' }];
  const assets: FakeAsset[] = [];
  let nextAssetId = 808_714;
  let nextCategoryId = 90_000;
  let baseUrl = '';

  const issue = (clientId: string, accountId: string | null, seconds: number) => {
    const accessToken = `eyJ${randomBytes(24).toString('base64url')}`;
    tokens.set(accessToken, { clientId, accountId, expiresAt: Date.now() + 20 * 60 * 1000 });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: seconds,
      scope: clients.get(clientId)?.scopes.join(' ') ?? '',
      soap_instance_url: `${baseUrl}/`,
      rest_instance_url: `${baseUrl}/`,
    };
  };
  const newRefreshToken = (clientId: string) => {
    const token = randomBytes(18).toString('base64url');
    refreshTokens.set(token, { clientId, used: false });
    return token;
  };

  const tokenRoute = (request: SeenRequest): FakeAnswer => {
    const body = bodyJson(request);
    if (!body) return json(400, { error: 'invalid_request', error_description: 'The body is not JSON' });
    const clientId = String(body.client_id ?? '');
    const client = clients.get(clientId);
    if (!client || body.client_secret !== client.secret)
      return json(401, {
        error: 'invalid_client',
        error_description:
          'Client authentication failed. Make sure that the client ID and client secret are valid and that the package is installed and enabled.',
        error_uri: 'https://developer.salesforce.com/docs',
      });
    const accountId = body.account_id === undefined ? null : String(body.account_id);
    const invalidGrant = (description: string) =>
      json(400, {
        error: 'invalid_grant',
        error_description: description,
        error_uri: 'https://developer.salesforce.com/docs',
      });
    switch (body.grant_type) {
      case 'client_credentials':
        return json(200, issue(clientId, accountId, 1080));
      case 'authorization_code': {
        const code = codes.get(String(body.code ?? ''));
        codes.delete(String(body.code ?? ''));
        if (!code || code.clientId !== clientId)
          return invalidGrant('The authorization code is invalid or expired.');
        if (code.redirectUri !== body.redirect_uri)
          return invalidGrant('redirect_uri does not match the authorize request.');
        return json(200, { ...issue(clientId, accountId, 1200), refresh_token: newRefreshToken(clientId) });
      }
      case 'refresh_token': {
        const stored = refreshTokens.get(String(body.refresh_token ?? ''));
        if (!stored || stored.used || stored.clientId !== clientId)
          return invalidGrant('The refresh token is invalid, expired or was already used.');
        stored.used = true;
        return json(200, { ...issue(clientId, accountId, 1200), refresh_token: newRefreshToken(clientId) });
      }
      default:
        return json(400, {
          error: 'unsupported_grant_type',
          error_description: 'Use a supported grant_type.',
        });
    }
  };

  const authorizeRoute = (request: SeenRequest): FakeAnswer => {
    const clientId = request.query.get('client_id') ?? '';
    const redirectUri = request.query.get('redirect_uri') ?? '';
    const client = clients.get(clientId);
    // An unknown client id does not redirect (the user sees Marketing Cloud's error page).
    if (!client || request.query.get('response_type') !== 'code')
      return {
        status: 400,
        headers: { 'content-type': 'text/html' },
        body: '<html><title>Invalid client</title></html>',
      };
    if (!client.redirectUris.includes(redirectUri))
      return {
        status: 400,
        headers: { 'content-type': 'text/html' },
        body: '<html><title>redirect_uri mismatch</title></html>',
      };
    // The user signs in and consents at once.
    const code = randomBytes(24).toString('base64url');
    codes.set(code, { clientId, redirectUri });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    const state = request.query.get('state');
    if (state !== null) target.searchParams.set('state', state);
    return { status: 302, headers: { location: target.toString() } };
  };

  const envelope = <T>(items: T[], page: number, pageSize: number) => ({
    count: items.length,
    page,
    pageSize,
    links: {},
    items: items.slice((page - 1) * pageSize, page * pageSize),
  });

  const checkAssetBody = (body: Record<string, unknown>, existing: FakeAsset | null): FakeAnswer | null => {
    const name = body.name ?? existing?.name;
    if (typeof name !== 'string' || name === '') return restError(400, 10002, 'Asset name is required.');
    if (name.length > 200) return restError(400, 10006, 'Asset name cannot be longer than 200 characters.');
    const typeId = (body.assetType as { id?: number } | undefined)?.id ?? existing?.assetType.id;
    if (typeof typeId !== 'number') return restError(400, 10002, 'Asset type is required.');
    const categoryId =
      (body.category as { id?: number } | undefined)?.id ?? existing?.category.id ?? rootCategoryId;
    if (!categories.some((category) => category.id === categoryId))
      return restError(400, 10006, `Category ${categoryId} does not exist.`);
    const taken = assets.find(
      (asset) =>
        asset !== existing &&
        asset.name === name &&
        asset.category.id === categoryId &&
        asset.assetType.id === typeId,
    );
    if (taken)
      return json(400, {
        message: 'Asset names within a category and asset type must be unique.',
        errorcode: 118039,
        documentation,
        validationErrors: [
          {
            message: `Asset names within a category and asset type must be unique. ${name} is already taken. Suggested name: ${name} (1)`,
            errorcode: 118039,
          },
        ],
      });
    return null;
  };

  const applyAsset = (asset: FakeAsset, body: Record<string, unknown>) => {
    if (typeof body.name === 'string') asset.name = body.name;
    const categoryId = (body.category as { id?: number } | undefined)?.id;
    const category = categories.find((candidate) => candidate.id === categoryId);
    if (category) asset.category = { id: category.id, name: category.name, parentId: category.parentId };
    const views = body.views as Record<string, { content?: unknown }> | undefined;
    for (const [view, value] of Object.entries(views ?? {}))
      if (typeof value?.content === 'string') asset.views[view] = { content: value.content };
    asset.modifiedDate = new Date().toISOString();
  };

  const restRoute = (request: SeenRequest, token: Token): FakeAnswer => {
    const { method, path, query } = request;
    const scopes = clients.get(token.clientId)?.scopes ?? [];
    const assetPath = /^\/asset\/v1\/content\/assets\/(\d+)$/.exec(path);
    const categoryPath = /^\/asset\/v1\/content\/categories\/(\d+)$/.exec(path);
    const writes = method !== 'GET' && !(method === 'POST' && path.endsWith('/query'));
    if (writes && !scopes.includes('saved_content_write'))
      return restError(403, 20002, 'Insufficient privileges to complete this action.');

    if (path === '/asset/v1/content/categories' && method === 'GET') {
      const parent = /parentId eq (\d+)/.exec(query.get('$filter') ?? '')?.[1];
      const items = categories.filter(
        (category) => parent === undefined || category.parentId === Number(parent),
      );
      return json(
        200,
        envelope(items, Number(query.get('$page') ?? 1), Number(query.get('$pagesize') ?? 50)),
      );
    }
    if (path === '/asset/v1/content/categories' && method === 'POST') {
      const body = bodyJson(request);
      if (typeof body?.name !== 'string' || typeof body.parentId !== 'number')
        return restError(400, 10002, 'name and parentId are required.');
      const category = {
        id: nextCategoryId++,
        name: body.name,
        parentId: body.parentId,
        categoryType: 'asset',
      };
      categories.push(category);
      return json(201, category);
    }
    if (categoryPath && method === 'GET') {
      const category = categories.find((candidate) => candidate.id === Number(categoryPath[1]));
      return category
        ? json(200, category)
        : json(404, { message: 'Not Found', errorcode: 404, documentation });
    }

    if (path === '/asset/v1/content/assets' && method === 'POST') {
      const body = bodyJson(request);
      if (!body) return restError(400, 10004, 'Invalid JSON.');
      const problem = checkAssetBody(body, null);
      if (problem) return problem;
      const customerKey =
        typeof body.customerKey === 'string' ? body.customerKey : randomBytes(8).toString('hex');
      if (customerKey.length > 36)
        return restError(400, 10006, 'customerKey cannot be longer than 36 characters.');
      if (assets.some((asset) => asset.customerKey === customerKey))
        return restError(400, 10006, `An asset with customerKey ${customerKey} already exists.`);
      const typeId = (body.assetType as { id: number }).id;
      const root = categories[0] as (typeof categories)[number];
      const asset: FakeAsset = {
        id: nextAssetId++,
        customerKey,
        name: '',
        assetType: { id: typeId, name: assetTypeNames[typeId] ?? 'asset' },
        category: { id: root.id, name: root.name, parentId: root.parentId },
        views: {},
        createdDate: new Date().toISOString(),
        modifiedDate: new Date().toISOString(),
        accountId: token.accountId,
      };
      applyAsset(asset, body);
      assets.push(asset);
      return json(201, { ...asset, status: { id: 1, name: 'Draft' }, modelVersion: 2 });
    }
    if (path === '/asset/v1/content/assets' && method === 'GET') {
      const filter = /^(customerKey|name) eq (.+)$/.exec(query.get('$filter') ?? '');
      const items = assets.filter(
        (asset) => !filter || String(asset[filter[1] as 'customerKey' | 'name']) === filter[2],
      );
      return json(
        200,
        envelope(items, Number(query.get('$page') ?? 1), Number(query.get('$pagesize') ?? 50)),
      );
    }
    if (path === '/asset/v1/content/assets/query' && method === 'POST') {
      const body = bodyJson(request) as {
        query?: { property?: string; simpleOperator?: string; value?: unknown };
      };
      const { property, value } = body?.query ?? {};
      const items = assets.filter(
        (asset) => !property || (asset as unknown as Record<string, unknown>)[property] === value,
      );
      return json(200, envelope(items, 1, 50));
    }
    if (assetPath) {
      const asset = assets.find((candidate) => candidate.id === Number(assetPath[1]));
      if (!asset) return json(404, { message: 'Not Found', errorcode: 404, documentation });
      if (method === 'GET') return json(200, asset);
      if (method === 'DELETE') {
        assets.splice(assets.indexOf(asset), 1);
        return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'OK' };
      }
      if (method === 'PATCH' || method === 'PUT') {
        const body = bodyJson(request);
        if (!body) return restError(400, 10004, 'Invalid JSON.');
        const problem = checkAssetBody(body, asset);
        if (problem) return problem;
        if (method === 'PUT') asset.views = {};
        applyAsset(asset, body);
        asset.accountId = token.accountId;
        return json(200, asset);
      }
    }
    return json(404, { message: 'Not Found', errorcode: 404, documentation });
  };

  const server = await startFakeServer((request) => {
    if (request.method === 'POST' && request.path === '/v2/token') return tokenRoute(request);
    if (request.method === 'GET' && request.path === '/v2/authorize') return authorizeRoute(request);
    const authorization = request.headers.authorization ?? '';
    const [scheme, value] = authorization.split(' ');
    if (scheme !== 'Bearer' || !value) return notAuthorized();
    const token = tokens.get(value);
    if (!token || token.expiresAt <= Date.now()) return notAuthorized();
    return restRoute(request, token);
  }, port);
  baseUrl = server.url;

  return {
    url: server.url,
    seen: server.seen,
    force: (answer) => server.forced.push(answer),
    addClient(clientId, client) {
      clients.set(clientId, {
        redirectUris: [],
        scopes: [
          'saved_content_read',
          'saved_content_write',
          'documents_and_images_read',
          'documents_and_images_write',
        ],
        ...client,
      });
    },
    assets,
    categories,
    rootCategoryId,
    expireTokens() {
      for (const token of tokens.values()) token.expiresAt = 0;
    },
    liveRefreshTokens: () =>
      [...refreshTokens.entries()].filter(([, token]) => !token.used).map(([value]) => value),
    close: server.close,
  };
}

/** Marketing Cloud's rate-limit answer: errorcode 50100 and Retry-After. */
export function salesforceRateLimited(retryAfterSeconds = 5): ForcedAnswer {
  return {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': String(retryAfterSeconds) },
    body: JSON.stringify({
      message: 'Rate limit exceeded',
      errorcode: 50100,
      retryAfter: retryAfterSeconds,
      documentation,
    }),
  };
}
