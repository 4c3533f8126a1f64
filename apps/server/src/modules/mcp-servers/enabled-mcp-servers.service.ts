/** Each person's enabled MCP servers: a server is turned on (and connected, with OAuth) per person. */
import { and, count, desc, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { enabledMcpServers, mcpServers } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import type { McpServerRow } from './mcp-connection.ts';
import { oauthSettingsOf, startOAuthFlowUrl } from './mcp-oauth.ts';
import type { CreateEnabledMcpServerBody, EnabledMcpServer } from './mcp-servers.schemas.ts';
import { isUsable } from './mcp-servers.service.ts';

type EnabledRow = typeof enabledMcpServers.$inferSelect;

async function toEnabledResponse(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  server: McpServerRow,
  row: EnabledRow,
): Promise<Static<typeof EnabledMcpServer>> {
  const usable = isUsable(server, row);
  return {
    id: row.id,
    mcp_server_id: server.id,
    name: server.name,
    enabled: usable,
    start_oauth_flow_url:
      server.oauth && !usable
        ? await startOAuthFlowUrl(services, server, {
            userId: principal.userId,
            afterOauthRedirectUrl: row.afterOauthRedirectUrl,
          })
        : null,
    logo_url: server.logoUrl,
    created_at: row.createdAt,
  };
}

/** The caller's own enabled MCP servers of the workspace (each person connects their own). */
export async function listEnabledMcpServers(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  page: PageRequest,
) {
  const where = and(
    eq(enabledMcpServers.workspaceId, workspaceId),
    eq(enabledMcpServers.userId, principal.userId),
  );
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select({ enabled: enabledMcpServers, server: mcpServers })
      .from(enabledMcpServers)
      .innerJoin(mcpServers, eq(mcpServers.id, enabledMcpServers.mcpServerId))
      .where(where)
      .orderBy(desc(enabledMcpServers.createdAt), desc(enabledMcpServers.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(enabledMcpServers).where(where),
  ]);
  return listBody(
    await Promise.all(rows.map((row) => toEnabledResponse(services, principal, row.server, row.enabled))),
    total?.value ?? 0,
    page,
  );
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a page is one of the app's own: on APP_URL, on the API's public origin, on an origin
 * allowed to call the API, or (when APP_URL is on this machine) on another loopback name for it
 * with the same scheme and port: `http://127.0.0.1:3000` for `http://localhost:3000`. A person who
 * opened the app at such an address comes back to it after signing in, where their session is.
 */
export function isAppOrigin(
  config: Pick<Services['config'], 'appUrl' | 'publicApiUrl' | 'corsOrigins'>,
  url: URL,
): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const origins = [config.appUrl, config.publicApiUrl, ...config.corsOrigins].map(
    (origin) => new URL(origin),
  );
  return origins.some(
    (origin) =>
      origin.origin === url.origin ||
      (loopbackHosts.has(origin.hostname) &&
        loopbackHosts.has(url.hostname) &&
        origin.protocol === url.protocol &&
        origin.port === url.port),
  );
}

function checkAfterOauthRedirectUrl(
  services: Pick<Services, 'config'>,
  text: string | undefined,
): string | null {
  if (text === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  // Only pages of the app itself: anything else would make the callback an open redirect.
  if (!url || !isAppOrigin(services.config, url))
    throw ValidationError.field(
      'after_oauth_redirect_url',
      `must be a page of the Letterset app (${services.config.appUrl})`,
    );
  return url.toString();
}

/**
 * Turns a server on for the caller. Without OAuth that is all; with OAuth the answer carries the
 * sign-in URL, and the server is enabled when the person comes back with a code.
 */
export async function enableMcpServer(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateEnabledMcpServerBody>,
) {
  const afterOauthRedirectUrl = checkAfterOauthRedirectUrl(services, input.after_oauth_redirect_url);
  const [server] = await services.database.db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.id, input.mcp_server_id), eq(mcpServers.workspaceId, workspaceId)));
  if (!server) throw ValidationError.field('mcp_server_id', 'is not an MCP server of this workspace');
  if (server.oauth && !oauthSettingsOf(server)?.client)
    throw ValidationError.field(
      'mcp_server_id',
      'needs a successful health check first: Letterset registers with its authorization server then',
    );
  const [row] = await services.database.db
    .insert(enabledMcpServers)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      userId: principal.userId,
      mcpServerId: server.id,
      // An OAuth server is enabled when the person comes back from signing in, not before.
      enabled: !server.oauth,
      afterOauthRedirectUrl,
    })
    .onConflictDoUpdate({
      target: [enabledMcpServers.userId, enabledMcpServers.mcpServerId],
      set: { ...(server.oauth ? {} : { enabled: true }), afterOauthRedirectUrl, updatedAt: new Date() },
    })
    .returning();
  if (!row) throw new Error('enabled mcp server upsert returned nothing');
  return toEnabledResponse(services, principal, server, row);
}

/** Turns a server off for the caller and forgets their tokens. */
export async function disableMcpServer(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
) {
  const [row] = await services.database.db
    .delete(enabledMcpServers)
    .where(
      and(
        eq(enabledMcpServers.id, id),
        eq(enabledMcpServers.workspaceId, workspaceId),
        eq(enabledMcpServers.userId, principal.userId),
      ),
    )
    .returning({ id: enabledMcpServers.id });
  if (!row) throw new NotFoundError();
}
