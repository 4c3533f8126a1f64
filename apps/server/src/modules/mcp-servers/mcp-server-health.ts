/**
 * An MCP server's health check (connect as the person checking, find out whether it needs OAuth,
 * list its tools), the sync of its tool list, and turning a tool on or off.
 */
import { and, eq, notInArray } from 'drizzle-orm';
import { enabledMcpServers, mcpServers, mcpServerTools } from '../../db/schema.ts';
import { findWorkspaceRecord } from '../../db/workspace-records.ts';
import { NotFoundError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import {
  connectMcp,
  listMcpTools,
  McpConnectionError,
  type McpServerRow,
  openHeaders,
} from './mcp-connection.ts';
import {
  accessTokenFor,
  discoverOAuth,
  McpOAuthError,
  type McpOAuthSettings,
  oauthSettingsOf,
} from './mcp-oauth.ts';
import { enabledRowsOf, getMcpServer } from './mcp-servers.service.ts';

export const connectYourAccount = 'Connect your account to list its tools';

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
async function checkServer(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  server: McpServerRow,
  userId: number,
): Promise<CheckResult> {
  const unchanged = {
    oauth: server.oauth,
    oauthSettings: oauthSettingsOf(server),
    tools: null,
    logoUrl: server.logoUrl,
  };
  const headers = openHeaders(services.secrets, server);
  const [mine] = (await enabledRowsOf(services, userId, [server.id])).values();
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
      await services.database.db
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
  services: Pick<Services, 'database'>,
  serverId: number,
  tools: NonNullable<CheckResult['tools']>,
): Promise<void> {
  const now = new Date();
  await services.database.db.transaction(async (tx) => {
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

export async function performHealthcheck(
  services: Pick<Services, 'database' | 'secrets' | 'config' | 'log'>,
  principal: Principal,
  workspaceId: number,
  id: number,
) {
  const server = await findWorkspaceRecord(services, mcpServers, workspaceId, id);
  const result = await checkServer(services, server, principal.userId);
  if (result.tools) await syncTools(services, server.id, result.tools);
  await services.database.db
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
  services.log.info(
    {
      mcpServerId: server.id,
      status: result.status,
      oauth: result.oauth,
      tools: result.tools?.length ?? null,
    },
    'mcp server health check',
  );
  return getMcpServer(services, principal, workspaceId, id);
}

export async function updateMcpServerTool(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  params: { mcp_server_id: number; id: number },
  enabled: boolean,
) {
  await findWorkspaceRecord(services, mcpServers, workspaceId, params.mcp_server_id);
  const [tool] = await services.database.db
    .update(mcpServerTools)
    .set({ enabled, updatedAt: new Date() })
    .where(and(eq(mcpServerTools.id, params.id), eq(mcpServerTools.mcpServerId, params.mcp_server_id)))
    .returning();
  if (!tool) throw new NotFoundError();
  return getMcpServer(services, principal, workspaceId, params.mcp_server_id);
}
