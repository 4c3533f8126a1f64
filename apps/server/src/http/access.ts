import { isPermissionKey, type PermissionKey } from '@letterset/core';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import {
  apiKeys,
  mcpAccessTokens,
  mcpApps,
  roles,
  sessions,
  users,
  workspaceMemberships,
  workspaces,
} from '../db/schema.ts';
import { tokenDigest } from '../security/tokens.ts';
import type { Services } from '../services.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from './errors.ts';
import { sessionCookieName } from './openapi.ts';
import type { Principal } from './principal.ts';
import { AccessChanges, changesAccess, PrincipalCache } from './principal-cache.ts';
import { limits } from './schemas.ts';

/**
 * Who may call a route: `public` (anyone), `signed_in` (any user of the organization), a
 * permission key the caller's role must grant, or a list of keys any one of which is enough
 * (running a feed: whoever sets feeds up or fills emails from them). Every documented route
 * declares one.
 */
export type RoutePermission = PermissionKey | readonly PermissionKey[] | 'signed_in' | 'public';

function isRoutePermission(permission: unknown): permission is RoutePermission {
  if (permission === 'public' || permission === 'signed_in') return true;
  if (Array.isArray(permission)) return permission.length > 0 && permission.every(isPermissionKey);
  return typeof permission === 'string' && isPermissionKey(permission);
}

export interface RoutePermissionEntry {
  method: string;
  url: string;
  permission: RoutePermission;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every documented route and who may call it, as declared: what the access tests walk. */
    routePermissions: RoutePermissionEntry[];
    /** Who callers are, and answers read from their organization's access data (`/me`), until it changes. */
    principalCache: PrincipalCache;
  }
  interface FastifyContextConfig {
    permission?: RoutePermission;
    /**
     * `/mcp`: a Bearer token may also be an MCP app's OAuth access token, and the session cookie
     * is not read (assistants send tokens; a browser's cookie must not reach the MCP server).
     */
    mcpAccessTokens?: boolean;
    /** The OAuth token endpoint: its Authorization header holds the app's client credentials, which it checks itself. */
    oauthClientAuthentication?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated caller, or null on public routes called anonymously. */
    principal: Principal | null;
    /**
     * Set by a route that revoked tokens of this organization, whatever it answers (the token
     * endpoint revokes what a reused code led to and answers 400): every process forgets what it
     * remembers of the organization's callers.
     */
    revokedAccessOf: number | null;
    /** The workspace of a `/workspaces/{workspace_id}/...` route, once access is checked. */
    workspace: { id: number; name: string } | null;
  }
}

/** Sessions last this long after the last request; a request refreshes it (at most hourly). */
export const sessionLifetimeMs = 14 * 24 * 60 * 60 * 1000;
const refreshIntervalMs = 60 * 60 * 1000;
/** MCP apps' OAuth access tokens start with this; API keys with `ls_`. */
export const mcpAccessTokenPrefix = 'lsat_';
/** API key "last used" is written at most once a minute, not on every request. */
const lastUsedResolutionMs = 60 * 1000;

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The routes this server documents; each must say who may call it. */
export function requiresPermissionDeclaration(route: Pick<RouteOptions, 'url' | 'schema'>): boolean {
  return (
    route.url.startsWith('/api/') ||
    Boolean((route.schema as { operationId?: string } | undefined)?.operationId)
  );
}

export function registerAccessControl(
  app: FastifyInstance,
  { database, config }: Pick<Services, 'database' | 'config'>,
): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('workspace', null);
  app.decorateRequest('revokedAccessOf', null);

  const routePermissions: RoutePermissionEntry[] = [];
  app.decorate('routePermissions', { getter: () => routePermissions });
  app.addHook('onRoute', (route) => {
    if (!requiresPermissionDeclaration(route)) return;
    const permission = route.config?.permission;
    if (!isRoutePermission(permission)) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} must declare config.permission (a permission key, 'signed_in' or 'public')`,
      );
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routePermissions.push({ method, url: route.url, permission });
    }
  });

  const principals = new PrincipalCache();
  app.decorate('principalCache', { getter: () => principals });
  const accessChanges = new AccessChanges({
    cache: principals,
    database,
    log: app.log,
  });
  app.addHook('onReady', () => accessChanges.listen());
  app.addHook('onClose', () => accessChanges.close());
  app.addHook('onRequest', async (request) => {
    const permission = request.routeOptions.config.permission;
    if (permission === undefined) return;
    const remembered = request.routeOptions.config.oauthClientAuthentication
      ? null
      : await authenticate(database.db, principals, request);
    request.principal = remembered?.principal ?? null;
    if (permission === 'public') return;

    const principal = request.principal;
    if (!remembered || !principal) throw new UnauthorizedError();
    if (principal.via === 'session' && unsafeMethods.has(request.method)) assertSameOrigin(request, config);
    const workspaceId = (request.params as { workspace_id?: string }).workspace_id;
    if (workspaceId !== undefined) {
      const id = Number(workspaceId);
      request.workspace =
        remembered.workspaces.get(id) ?? (await accessibleWorkspace(database.db, principal, workspaceId));
      if (request.workspace) remembered.workspaces.set(id, request.workspace);
    }
    if (permission !== 'signed_in') requirePermission(principal, permission);
  });
  // Before the answer leaves, so that no process acts on the old access once the caller knows of the change.
  app.addHook('onSend', async (request, reply, payload) => {
    const revoked = request.revokedAccessOf !== null;
    const changed = revoked || (reply.statusCode < 400 && changesAccess(request.routeOptions.url ?? ''));
    if (unsafeMethods.has(request.method) && changed) {
      try {
        await accessChanges.publish(
          revoked ? request.revokedAccessOf : (request.principal?.organizationId ?? null),
        );
      } catch (error) {
        // The change is made and this process forgot; the others fall back to the cache's time-to-live.
        request.log.error({ err: error }, 'could not tell the other processes that access changed');
      }
    }
    return payload;
  });
}

/**
 * 403 naming the key (or the keys, any one of which is enough), for the route's own key and for
 * checks a route's key cannot express (what a change touches).
 */
export function requirePermission(
  principal: Principal,
  permission: PermissionKey | readonly PermissionKey[],
): void {
  const anyOf: readonly PermissionKey[] = typeof permission === 'string' ? [permission] : permission;
  if (!anyOf.some((key) => principal.permissions.has(key))) {
    throw new ForbiddenError(`You need the ${permissionNames(anyOf)} permission to do this`);
  }
}

/** `a`, `a or b`, `a, b or c`. */
function permissionNames(keys: readonly PermissionKey[]): string {
  return keys.length === 1 ? String(keys[0]) : `${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}`;
}

/** The caller of a route that is not public: always set by the access hook. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}

export function workspaceOf(request: FastifyRequest): { id: number; name: string } {
  if (!request.workspace) throw new Error('workspaceOf() used on a route without {workspace_id}');
  return request.workspace;
}

/** The caller, from the cache when it was seen in the last seconds, else from the database. */
async function authenticate(db: Database, principals: PrincipalCache, request: FastifyRequest) {
  const authorization = request.headers.authorization;
  const acceptsMcpAccessTokens = request.routeOptions.config.mcpAccessTokens === true;
  if (authorization !== undefined) {
    const [scheme, token] = authorization.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) {
      throw new UnauthorizedError('Send the API key as "Authorization: Bearer <key>"');
    }
    if (acceptsMcpAccessTokens && token.startsWith(mcpAccessTokenPrefix)) {
      const mcpKey = `mcp:${tokenDigest(token)}`;
      const rememberedMcp = principals.get(mcpKey);
      if (rememberedMcp) return rememberedMcp;
      const mcpLookupStarted = principals.lookupStarted();
      const principal = await principalFromMcpAccessToken(db, token);
      if (!principal) {
        throw new UnauthorizedError('This access token is not valid: it may have expired or been revoked');
      }
      return principals.remember(mcpKey, principal, mcpLookupStarted);
    }
    const key = `key:${tokenDigest(token)}`;
    const remembered = principals.get(key);
    if (remembered) return remembered;
    const lookupStarted = principals.lookupStarted();
    // A key that does not work is an error, never a silent fall-back to the cookie.
    const principal = await principalFromApiKey(db, token);
    if (!principal) throw new UnauthorizedError('This API key is not valid: it may have been revoked');
    return principals.remember(key, principal, lookupStarted);
  }
  if (acceptsMcpAccessTokens) return null;
  const sessionToken = request.cookies[sessionCookieName];
  if (!sessionToken) return null;
  const key = `session:${tokenDigest(sessionToken)}`;
  const remembered = principals.get(key);
  if (remembered) return remembered;
  const lookupStarted = principals.lookupStarted();
  const principal = await principalFromSession(db, sessionToken);
  return principal ? principals.remember(key, principal, lookupStarted) : null;
}

const principalColumns = {
  userId: users.id,
  organizationId: users.organizationId,
  roleId: users.roleId,
  permissions: roles.permissions,
};

async function principalFromApiKey(db: Database, token: string): Promise<Principal | null> {
  const [row] = await db
    .select({ ...principalColumns, apiKeyId: apiKeys.id, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(users, and(eq(users.id, apiKeys.userId), isNull(users.deletedAt)))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(apiKeys.tokenHash, tokenDigest(token)), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > lastUsedResolutionMs) {
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.apiKeyId));
  }
  return toPrincipal(row, { via: 'api_key', sessionTokenHash: null, apiKeyId: row.apiKeyId });
}

/** An unexpired, unrevoked access token of an MCP app of the user's own organization. */
async function principalFromMcpAccessToken(db: Database, token: string): Promise<Principal | null> {
  const [row] = await db
    .select(principalColumns)
    .from(mcpAccessTokens)
    .innerJoin(users, and(eq(users.id, mcpAccessTokens.userId), isNull(users.deletedAt)))
    .innerJoin(
      mcpApps,
      and(eq(mcpApps.id, mcpAccessTokens.mcpAppId), eq(mcpApps.organizationId, users.organizationId)),
    )
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(mcpAccessTokens.accessTokenHash, tokenDigest(token)),
        isNull(mcpAccessTokens.revokedAt),
        gt(mcpAccessTokens.expiresAt, sql`now()`),
      ),
    );
  return row ? toPrincipal(row, { via: 'mcp_oauth', sessionTokenHash: null, apiKeyId: null }) : null;
}

async function principalFromSession(db: Database, token: string): Promise<Principal | null> {
  const tokenHash = tokenDigest(token);
  const [row] = await db
    .select({ ...principalColumns, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), isNull(users.deletedAt)))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)));
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > refreshIntervalMs) {
    const now = new Date();
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + sessionLifetimeMs) })
      .where(eq(sessions.tokenHash, tokenHash));
  }
  return toPrincipal(row, { via: 'session', sessionTokenHash: tokenHash, apiKeyId: null });
}

function toPrincipal(
  row: { userId: number; organizationId: number; roleId: number; permissions: string[] },
  how: Pick<Principal, 'via' | 'sessionTokenHash' | 'apiKeyId'>,
): Principal {
  return {
    userId: row.userId,
    organizationId: row.organizationId,
    roleId: row.roleId,
    permissions: new Set(row.permissions.filter(isPermissionKey)),
    ...how,
  };
}

/**
 * CSRF defence for cookie-authenticated writes: the browser's Origin must be this server's own
 * (the Host it was asked on, or PUBLIC_API_URL) or a configured CORS origin. Browsers send
 * Origin on every cross-site write; clients that send none are not browsers.
 */
function assertSameOrigin(request: FastifyRequest, config: Config): void {
  const origin = request.headers.origin;
  if (origin === undefined) {
    if (request.headers['sec-fetch-site'] === 'cross-site')
      throw new ForbiddenError('Cross-site request refused');
    return;
  }
  const ownOrigin = `${request.protocol}://${request.host}`;
  const allowed =
    origin === ownOrigin || origin === config.publicApiUrl || config.corsOrigins.includes(origin);
  if (!allowed) throw new ForbiddenError('Cross-site request refused');
}

async function accessibleWorkspace(db: Database, principal: Principal, rawId: string) {
  const id = Number(rawId);
  // A malformed id is left for schema validation to answer (422; 404 when out of the id range).
  if (!Number.isSafeInteger(id) || id < 1 || id > limits.largestId) return null;
  const [workspace] = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      isMember: sql<boolean>`${workspaceMemberships.userId} is not null`,
    })
    .from(workspaces)
    .leftJoin(
      workspaceMemberships,
      and(
        eq(workspaceMemberships.workspaceId, workspaces.id),
        eq(workspaceMemberships.userId, principal.userId),
      ),
    )
    .where(and(eq(workspaces.id, id), eq(workspaces.organizationId, principal.organizationId)));
  if (!workspace) throw new NotFoundError();
  if (!workspace.isMember && !principal.permissions.has('access_all_workspaces')) {
    throw new ForbiddenError('You are not a member of this workspace');
  }
  return { id: workspace.id, name: workspace.name };
}
