import { and, asc, count, desc, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import { changesAnything } from '../../db/record-updates.ts';
import { enabledMcpServers, mcpServers, mcpServerTools } from '../../db/schema.ts';
import { findWorkspaceRecord, pageOfWorkspaceRecords } from '../../db/workspace-records.ts';
import type { Principal } from '../../http/access.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import { sameDestination } from '../../security/secret-destination.ts';
import { maskSecret } from '../../security/secrets.ts';
import {
  connectMcp,
  listMcpTools,
  McpConnectionError,
  type McpServerRow,
  type McpServices,
  mcpUrlProblem,
  openHeaders,
  sealHeaders,
} from './mcp-connection.ts';
import {
  accessTokenFor,
  completeOAuthFlow,
  discoverOAuth,
  isExpired,
  McpOAuthError,
  type McpOAuthSettings,
  oauthSettingsOf,
  readOAuthState,
  startOAuthFlowUrl,
} from './mcp-oauth.ts';
import type {
  CreateEnabledMcpServerBody,
  CreateMcpServerBody,
  EnabledMcpServer,
  McpServer,
  UpdateMcpServerBody,
} from './mcp-servers.schemas.ts';

type EnabledRow = typeof enabledMcpServers.$inferSelect;
type ToolRow = typeof mcpServerTools.$inferSelect;
type McpServerResponse = Static<typeof McpServer>;

export function mcpServicesOf(app: App): McpServices {
  return { db: app.database.db, secrets: app.secrets, config: app.config };
}

/** Headers the transport sets itself: a configured value would break the protocol. */
const reservedHeaders = new Set([
  'accept',
  'content-type',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

export const connectYourAccount = 'Connect your account to list its tools';

/** The page of the web app a person returns to after connecting, unless they said another. */
function mcpConnectorsPage(app: App, workspaceId: number): string {
  return `${app.config.appUrl}/workspaces/${workspaceId}/connectors/mcp`;
}

/** The person's own enabled rows for these servers, by server id. */
async function enabledRowsOf(
  app: App,
  userId: number,
  serverIds: number[],
): Promise<Map<number, EnabledRow>> {
  if (serverIds.length === 0) return new Map();
  const rows = await app.database.db
    .select()
    .from(enabledMcpServers)
    .where(and(eq(enabledMcpServers.userId, userId), inArray(enabledMcpServers.mcpServerId, serverIds)));
  return new Map(rows.map((row) => [row.mcpServerId, row]));
}

/** Whether the person can use the server's tools: enabled, and connected when it needs OAuth. */
function isUsable(server: McpServerRow, enabled: EnabledRow | undefined): boolean {
  return Boolean(enabled?.enabled && (!server.oauth || enabled.sealedTokens));
}

async function toResponses(
  app: App,
  principal: Principal,
  rows: McpServerRow[],
): Promise<McpServerResponse[]> {
  const ids = rows.map((row) => row.id);
  const [tools, enabled] = await Promise.all([
    ids.length === 0
      ? Promise.resolve([] as ToolRow[])
      : app.database.db
          .select()
          .from(mcpServerTools)
          .where(inArray(mcpServerTools.mcpServerId, ids))
          .orderBy(asc(mcpServerTools.name)),
    enabledRowsOf(app, principal.userId, ids),
  ]);
  const services = mcpServicesOf(app);
  return Promise.all(
    rows.map(async (row) => {
      const mine = enabled.get(row.id);
      const headers = openHeaders(app.secrets, row);
      return {
        id: row.id,
        name: row.name,
        url: row.url,
        healthcheck_status: row.healthcheckStatus,
        healthcheck_error: row.healthcheckError,
        healthchecked_at: row.healthcheckedAt,
        headers: Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [name, maskSecret(value)]),
        ),
        tools: tools
          .filter((tool) => tool.mcpServerId === row.id)
          .map((tool) => ({
            id: tool.id,
            name: tool.name,
            description: tool.description,
            enabled: tool.enabled,
            created_at: tool.createdAt,
          })),
        logo_url: row.logoUrl,
        oauth: row.oauth,
        start_oauth_flow_url:
          row.oauth && !isUsable(row, mine)
            ? await startOAuthFlowUrl(services, row, {
                userId: principal.userId,
                afterOauthRedirectUrl: mine?.afterOauthRedirectUrl ?? null,
              })
            : null,
        workspace_id: row.workspaceId,
        created_at: row.createdAt,
        updated_at: row.updatedAt,
      };
    }),
  );
}

export async function listMcpServers(app: App, principal: Principal, workspaceId: number, page: PageRequest) {
  const { rows, total } = await pageOfWorkspaceRecords(app, mcpServers, workspaceId, page);
  return listBody(await toResponses(app, principal, rows), total, page);
}

export async function getMcpServer(app: App, principal: Principal, workspaceId: number, id: number) {
  const row = await findWorkspaceRecord(app, mcpServers, workspaceId, id);
  const [response] = await toResponses(app, principal, [row]);
  return response as McpServerResponse;
}

function checkUrl(app: App, url: string): string {
  const trimmed = url.trim();
  const problem = mcpUrlProblem(trimmed, app.config.outboundFetch.allowPrivateNetwork);
  if (problem) throw ValidationError.field('url', problem);
  return trimmed;
}

/**
 * The headers to store: a value sent back masked keeps the stored one, but only while the server
 * keeps its origin (`keepsDestination`); moved to another scheme, host or port, a masked value
 * names a header to drop, listed in `cleared`.
 */
function checkHeaders(
  sent: Record<string, string>,
  stored: Record<string, string> = {},
  keepsDestination = true,
): { headers: Record<string, string>; cleared: string[] } {
  const errors: Record<string, string[]> = {};
  const headers: Record<string, string> = {};
  const cleared: string[] = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(sent)) {
    const lower = name.toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(name))
      errors[`headers.${name}`] = ["is not a valid header name (letters, digits and !#$%&'*+.^_`|~-)"];
    else if (reservedHeaders.has(lower)) errors[`headers.${name}`] = ['is set by Letterset itself'];
    else if (seen.has(lower)) errors[`headers.${name}`] = ['is given twice (header names ignore case)'];
    else if (value.trim() === '') errors[`headers.${name}`] = ['needs a value'];
    seen.add(lower);
    const previous = Object.entries(stored).find(([storedName]) => storedName.toLowerCase() === lower)?.[1];
    if (previous === undefined || value !== maskSecret(previous)) headers[name] = value.trim();
    else if (keepsDestination) headers[name] = previous;
    else cleared.push(`headers.${name}`);
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { headers, cleared };
}

export async function createMcpServer(
  app: App,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateMcpServerBody>,
) {
  const url = checkUrl(app, input.url);
  const { headers } = checkHeaders(input.headers ?? {});
  const [row] = await app.database.db
    .insert(mcpServers)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      name: input.name,
      url,
      sealedHeaders: sealHeaders(app.secrets, headers),
      createdById: principal.userId,
    })
    .returning();
  if (!row) throw new Error('mcp server insert returned nothing');
  return getMcpServer(app, principal, workspaceId, row.id);
}

export async function updateMcpServer(
  app: App,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateMcpServerBody>,
) {
  const row = await findWorkspaceRecord(app, mcpServers, workspaceId, id);
  // An update of nothing writes nothing: the server reads as it was, updated_at included.
  if (!changesAnything(input))
    return { ...(await getMcpServer(app, principal, workspaceId, id)), secrets_cleared: [] };
  const url = input.url === undefined ? row.url : checkUrl(app, input.url);
  const moved = url !== row.url;
  // The headers were entered for the old origin: sent to another only if this change gives them again.
  const keepsDestination = sameDestination(row.url, url);
  const storedHeaders = openHeaders(app.secrets, row);
  const headerChange =
    input.headers !== undefined || !keepsDestination
      ? checkHeaders(
          // Left out, the headers stay as they are: as if sent back masked.
          input.headers ??
            Object.fromEntries(
              Object.entries(storedHeaders).map(([name, value]) => [name, maskSecret(value)]),
            ),
          storedHeaders,
          keepsDestination,
        )
      : undefined;
  const secretsCleared = [...(headerChange?.cleared ?? [])];
  await app.database.db.transaction(async (tx) => {
    await tx
      .update(mcpServers)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        url,
        ...(headerChange !== undefined
          ? { sealedHeaders: sealHeaders(app.secrets, headerChange.headers) }
          : {}),
        // Another server: what was found about this one no longer holds.
        ...(moved
          ? {
              healthcheckStatus: 'pending' as const,
              healthcheckError: null,
              healthcheckedAt: null,
              oauth: false,
              oauthSettings: null,
              logoUrl: null,
            }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(mcpServers.id, id));
    // People's tokens were issued for the old server: they must never be sent to the new one.
    if (moved) {
      const forgotten = await tx
        .select({ id: enabledMcpServers.id })
        .from(enabledMcpServers)
        .where(and(eq(enabledMcpServers.mcpServerId, id), isNotNull(enabledMcpServers.sealedTokens)));
      await tx
        .update(enabledMcpServers)
        .set({
          // A connection to an OAuth server was the sign-in: it has to be made again.
          ...(row.oauth ? { enabled: false } : {}),
          sealedTokens: null,
          tokensExpireAt: null,
          sealedOauthFlow: null,
          updatedAt: new Date(),
        })
        .where(eq(enabledMcpServers.mcpServerId, id));
      if (forgotten.length > 0) secretsCleared.push('oauth_tokens');
      if (oauthSettingsOf(row)?.client?.sealed_client_secret) secretsCleared.push('oauth_client_secret');
    }
  });
  return { ...(await getMcpServer(app, principal, workspaceId, id)), secrets_cleared: secretsCleared };
}

export async function deleteMcpServer(app: App, workspaceId: number, id: number) {
  await findWorkspaceRecord(app, mcpServers, workspaceId, id);
  await app.database.db.delete(mcpServers).where(eq(mcpServers.id, id));
}

interface CheckResult {
  status: 'healthy' | 'unhealthy';
  error: string | null;
  oauth: boolean;
  oauthSettings: McpOAuthSettings | null;
  tools: Awaited<ReturnType<typeof listMcpTools>> | null;
  logoUrl: string | null;
}

/**
 * Connects as the person checking (the headers; their own token for an OAuth server), lists the
 * tools; a 401 with OAuth metadata makes it an OAuth server, and registers Letterset with its
 * authorization server.
 */
async function checkServer(app: App, server: McpServerRow, userId: number): Promise<CheckResult> {
  const services = mcpServicesOf(app);
  const unchanged = {
    oauth: server.oauth,
    oauthSettings: oauthSettingsOf(server),
    tools: null,
    logoUrl: server.logoUrl,
  };
  const headers = openHeaders(app.secrets, server);
  const [mine] = (await enabledRowsOf(app, userId, [server.id])).values();
  let accessToken: string | null = null;
  if (server.oauth && mine?.sealedTokens) {
    try {
      accessToken = await accessTokenFor(services, server, mine);
    } catch (error) {
      if (!(error instanceof McpOAuthError)) throw error;
      return { ...unchanged, status: 'unhealthy', error: error.message };
    }
  }
  try {
    const connection = await connectMcp(services, {
      url: server.url,
      headers,
      accessToken: accessToken ?? undefined,
    });
    try {
      const tools = await listMcpTools(connection);
      const icon = connection.client
        .getServerVersion()
        ?.icons?.find((candidate) => /^https?:\/\//.test(candidate.src));
      return {
        status: 'healthy',
        error: null,
        // Answering without a token proves it does not need OAuth (any more).
        oauth: server.oauth && accessToken !== null,
        oauthSettings: accessToken !== null ? oauthSettingsOf(server) : null,
        tools,
        logoUrl: icon?.src ?? null,
      };
    } finally {
      await connection.close();
    }
  } catch (error) {
    if (!(error instanceof McpConnectionError)) throw error;
    if (error.status !== 401) return { ...unchanged, status: 'unhealthy', error: error.message };
    let settings: McpOAuthSettings | null;
    try {
      settings = await discoverOAuth(services, server, error.challenge);
    } catch (oauthError) {
      if (!(oauthError instanceof McpOAuthError)) throw oauthError;
      return { ...unchanged, oauth: true, status: 'unhealthy', error: oauthError.message };
    }
    if (!settings)
      return {
        ...unchanged,
        status: 'unhealthy',
        error: `${error.message}, and offers no OAuth metadata: check the URL and the headers (an API key?)`,
      };
    const withOAuth = { oauth: true, oauthSettings: settings, tools: null, logoUrl: server.logoUrl };
    if (accessToken && mine) {
      // The server refused the person's token: forget it; they connect again.
      await app.database.db
        .update(enabledMcpServers)
        .set({ enabled: false, sealedTokens: null, tokensExpireAt: null, updatedAt: new Date() })
        .where(eq(enabledMcpServers.id, mine.id));
      return {
        ...withOAuth,
        status: 'healthy',
        error: `The server refused your connection. ${connectYourAccount}`,
      };
    }
    return { ...withOAuth, status: 'healthy', error: connectYourAccount };
  }
}

/** Adds the tools the server lists now (disabled), updates the others, deletes those gone. */
async function syncTools(
  app: App,
  serverId: number,
  tools: NonNullable<CheckResult['tools']>,
): Promise<void> {
  const now = new Date();
  await app.database.db.transaction(async (tx) => {
    const names = tools.map((tool) => tool.name);
    await tx
      .delete(mcpServerTools)
      .where(
        names.length === 0
          ? eq(mcpServerTools.mcpServerId, serverId)
          : and(eq(mcpServerTools.mcpServerId, serverId), notInArray(mcpServerTools.name, names)),
      );
    for (const tool of tools) {
      await tx
        .insert(mcpServerTools)
        .values({
          mcpServerId: serverId,
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
        })
        .onConflictDoUpdate({
          target: [mcpServerTools.mcpServerId, mcpServerTools.name],
          set: { description: tool.description, inputSchema: tool.inputSchema, updatedAt: now },
        });
    }
  });
}

export async function performHealthcheck(app: App, principal: Principal, workspaceId: number, id: number) {
  const server = await findWorkspaceRecord(app, mcpServers, workspaceId, id);
  const result = await checkServer(app, server, principal.userId);
  if (result.tools) await syncTools(app, server.id, result.tools);
  await app.database.db
    .update(mcpServers)
    .set({
      healthcheckStatus: result.status,
      healthcheckError: result.error,
      healthcheckedAt: new Date(),
      oauth: result.oauth,
      oauthSettings: result.oauthSettings as Record<string, unknown> | null,
      logoUrl: result.logoUrl,
      updatedAt: new Date(),
    })
    .where(eq(mcpServers.id, server.id));
  app.log.info(
    {
      mcpServerId: server.id,
      status: result.status,
      oauth: result.oauth,
      tools: result.tools?.length ?? null,
    },
    'mcp server health check',
  );
  return getMcpServer(app, principal, workspaceId, id);
}

export async function updateMcpServerTool(
  app: App,
  principal: Principal,
  workspaceId: number,
  params: { mcp_server_id: number; id: number },
  enabled: boolean,
) {
  await findWorkspaceRecord(app, mcpServers, workspaceId, params.mcp_server_id);
  const [tool] = await app.database.db
    .update(mcpServerTools)
    .set({ enabled, updatedAt: new Date() })
    .where(and(eq(mcpServerTools.id, params.id), eq(mcpServerTools.mcpServerId, params.mcp_server_id)))
    .returning();
  if (!tool) throw new NotFoundError();
  return getMcpServer(app, principal, workspaceId, params.mcp_server_id);
}

// ——— Each person's enabled MCP servers ———

async function toEnabledResponse(
  app: App,
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
        ? await startOAuthFlowUrl(mcpServicesOf(app), server, {
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
  app: App,
  principal: Principal,
  workspaceId: number,
  page: PageRequest,
) {
  const where = and(
    eq(enabledMcpServers.workspaceId, workspaceId),
    eq(enabledMcpServers.userId, principal.userId),
  );
  const [rows, [total]] = await Promise.all([
    app.database.db
      .select({ enabled: enabledMcpServers, server: mcpServers })
      .from(enabledMcpServers)
      .innerJoin(mcpServers, eq(mcpServers.id, enabledMcpServers.mcpServerId))
      .where(where)
      .orderBy(desc(enabledMcpServers.createdAt), desc(enabledMcpServers.id))
      .limit(page.limit)
      .offset(page.offset),
    app.database.db.select({ value: count() }).from(enabledMcpServers).where(where),
  ]);
  return listBody(
    await Promise.all(rows.map((row) => toEnabledResponse(app, principal, row.server, row.enabled))),
    total?.value ?? 0,
    page,
  );
}

function checkAfterOauthRedirectUrl(app: App, text: string | undefined): string | null {
  if (text === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  // Only pages of the app itself: anything else would make the callback an open redirect.
  if (!url || url.origin !== new URL(app.config.appUrl).origin)
    throw ValidationError.field(
      'after_oauth_redirect_url',
      `must be a page of the Letterset app (${app.config.appUrl})`,
    );
  return url.toString();
}

/**
 * Turns a server on for the caller. Without OAuth that is all; with OAuth the answer carries the
 * sign-in URL, and the server is enabled when the person comes back with a code.
 */
export async function enableMcpServer(
  app: App,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateEnabledMcpServerBody>,
) {
  const afterOauthRedirectUrl = checkAfterOauthRedirectUrl(app, input.after_oauth_redirect_url);
  const [server] = await app.database.db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.id, input.mcp_server_id), eq(mcpServers.workspaceId, workspaceId)));
  if (!server) throw ValidationError.field('mcp_server_id', 'is not an MCP server of this workspace');
  if (server.oauth && !oauthSettingsOf(server)?.client)
    throw ValidationError.field(
      'mcp_server_id',
      'needs a successful health check first: Letterset registers with its authorization server then',
    );
  const [row] = await app.database.db
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
  return toEnabledResponse(app, principal, server, row);
}

/** Turns a server off for the caller and forgets their tokens. */
export async function disableMcpServer(app: App, principal: Principal, workspaceId: number, id: number) {
  const [row] = await app.database.db
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

/** Where the OAuth callback sends the browser: a redirect, or a page when there is nowhere to go. */
export type OAuthCallbackOutcome = { redirect: string } | { page: { title: string; message: string } };

/**
 * The authorization server sent the browser back. A state Letterset did not make (or made
 * for someone else than the person signed in here) is refused; otherwise the code is exchanged
 * and the browser goes back to the app with `mcp_oauth=connected` or `mcp_oauth_error=<why>`.
 */
export async function finishOAuthCallback(
  app: App,
  signedIn: Principal | null,
  query: { code?: string; state?: string; iss?: string; error?: string; error_description?: string },
): Promise<OAuthCallbackOutcome> {
  const state = query.state ? readOAuthState(mcpServicesOf(app), query.state) : null;
  if (!state)
    return {
      page: {
        title: 'This sign-in link is not valid',
        message: 'Go back to Letterset and click Connect on the MCP connector again.',
      },
    };
  const back = new URL(state.afterOauthRedirectUrl ?? mcpConnectorsPage(app, state.workspaceId));
  back.searchParams.set('mcp_server_id', String(state.mcpServerId));
  const failed = (message: string) => {
    back.searchParams.set('mcp_oauth_error', message);
    return { redirect: back.toString() };
  };
  // Someone else's link, finished in this browser, would connect their account to another's.
  if (signedIn && (signedIn.userId !== state.userId || signedIn.organizationId !== state.organizationId))
    return failed('This sign-in was started by another Letterset user: click Connect again');
  if (isExpired(state)) return failed('The sign-in took too long: click Connect again');
  if (query.error)
    return failed(
      query.error === 'access_denied'
        ? 'Access was denied at the sign-in'
        : `The authorization server answered ${query.error}${query.error_description ? ` (${query.error_description})` : ''}`,
    );
  if (!query.code) return failed('The authorization server sent back no code');
  try {
    await completeOAuthFlow(mcpServicesOf(app), state, { code: query.code, iss: query.iss });
  } catch (error) {
    if (!(error instanceof McpOAuthError)) throw error;
    app.log.info({ mcpServerId: state.mcpServerId, reason: error.message }, 'mcp oauth callback failed');
    return failed(error.message);
  }
  back.searchParams.set('mcp_oauth', 'connected');
  return { redirect: back.toString() };
}
