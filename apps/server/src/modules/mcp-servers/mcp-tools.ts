import type { CallToolResult } from '@modelcontextprotocol/client';
import { dynamicTool, type JSONSchema7, jsonSchema, type ToolSet } from 'ai';
import { and, eq, inArray } from 'drizzle-orm';
import { enabledMcpServers, mcpServers, mcpServerTools } from '../../db/schema.ts';
import type { Services } from '../../services.ts';
import {
  connectMcp,
  listMcpTools,
  type McpConnection,
  McpConnectionError,
  type McpServerRow,
  mcpToolCallTimeoutMs,
  openHeaders,
} from './mcp-connection.ts';
import { accessTokenFor } from './mcp-oauth.ts';

/** What a tool call answers the model: the server's text, and its structured result if any. */
export interface McpToolOutput {
  text: string;
  structured?: Record<string, unknown>;
  isError?: boolean;
}

export interface OpenedMcpTools {
  /** AI SDK tools, named `mcp<server id>_<tool name>` so that names stay unique across servers. */
  tools: ToolSet;
  /** How each tool of `tools` is named to people: its connector's name and its own (mcpToolLabel). */
  labels: ReadonlyMap<string, string>;
  /** Closes the connections: call it when the conversation turn ends (in a `finally`). */
  close(): Promise<void>;
}

/** Tool names models accept: letters, digits, `_` and `-`, at most 64 characters. */
export function mcpToolName(serverId: number, toolName: string): string {
  return `mcp${serverId}_${toolName.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

/** A connector's tool as people know it: “Campaign briefs › get_brief”, never the model's id for it. */
export function mcpToolLabel(serverName: string, toolName: string): string {
  return `${serverName} › ${toolName}`;
}

function outputOf(result: CallToolResult): McpToolOutput {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource' && 'text' in block.resource) parts.push(block.resource.text);
    else if (block.type === 'resource_link') parts.push(`${block.name}: ${block.uri}`);
    else parts.push(`[${block.type} content]`);
  }
  return {
    text: parts.join('\n'),
    ...(result.structuredContent ? { structured: result.structuredContent as Record<string, unknown> } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}

/**
 * Connects with this person's credentials: the server's headers, and for an OAuth server their
 * own access token (refreshed when it expires, and once more if the server refuses it).
 * Null when they cannot use it (an OAuth server they have not connected to).
 */
async function connectAs(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  server: McpServerRow,
  enabled: typeof enabledMcpServers.$inferSelect,
): Promise<McpConnection | null> {
  const headers = openHeaders(services.secrets, server);
  if (!server.oauth)
    return connectMcp(services, { url: server.url, headers }, { timeoutMs: mcpToolCallTimeoutMs });
  const accessToken = await accessTokenFor(services, server, enabled);
  if (!accessToken) return null;
  try {
    return await connectMcp(
      services,
      { url: server.url, headers, accessToken },
      { timeoutMs: mcpToolCallTimeoutMs },
    );
  } catch (error) {
    if (!(error instanceof McpConnectionError) || error.status !== 401) throw error;
    const refreshed = await accessTokenFor(services, server, enabled, { force: true });
    if (!refreshed || refreshed === accessToken) return null;
    return connectMcp(
      services,
      { url: server.url, headers, accessToken: refreshed },
      { timeoutMs: mcpToolCallTimeoutMs },
    );
  }
}

/**
 * The tools this person may use in the AI features: the enabled tools of the MCP servers of
 * the workspace that they enabled (and connected to, for OAuth servers), as AI SDK tools that
 * call the server. Tools are offered as the server lists them now (a tool the server no longer
 * has is left out). A server that cannot be reached is left out, and so are its tools: the
 * chat goes on without it; `onServerFailure` hears why.
 */
export async function openMcpTools(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  who: { organizationId: number; workspaceId: number; userId: number },
  options: {
    onServerFailure?: (failure: { mcpServerId: number; name: string; message: string }) => void;
  } = {},
): Promise<OpenedMcpTools> {
  const rows = await services.database.db
    .select({ server: mcpServers, enabled: enabledMcpServers })
    .from(enabledMcpServers)
    .innerJoin(mcpServers, eq(mcpServers.id, enabledMcpServers.mcpServerId))
    .where(
      and(
        eq(enabledMcpServers.userId, who.userId),
        eq(enabledMcpServers.workspaceId, who.workspaceId),
        eq(enabledMcpServers.organizationId, who.organizationId),
        eq(enabledMcpServers.enabled, true),
        eq(mcpServers.workspaceId, who.workspaceId),
        eq(mcpServers.organizationId, who.organizationId),
      ),
    );
  if (rows.length === 0) return { tools: {}, labels: new Map(), close: async () => undefined };
  const enabledTools = await services.database.db
    .select({ mcpServerId: mcpServerTools.mcpServerId, name: mcpServerTools.name })
    .from(mcpServerTools)
    .where(
      and(
        inArray(
          mcpServerTools.mcpServerId,
          rows.map((row) => row.server.id),
        ),
        eq(mcpServerTools.enabled, true),
      ),
    );

  const connections: McpConnection[] = [];
  const tools: ToolSet = {};
  const labels = new Map<string, string>();
  await Promise.all(
    rows.map(async ({ server, enabled }) => {
      const wanted = new Set(
        enabledTools.filter((tool) => tool.mcpServerId === server.id).map((tool) => tool.name),
      );
      if (wanted.size === 0) return;
      let connection: McpConnection | null = null;
      try {
        connection = await connectAs(services, server, enabled);
        if (!connection) {
          options.onServerFailure?.({
            mcpServerId: server.id,
            name: server.name,
            message: 'Connect your account to use this server',
          });
          return;
        }
        connections.push(connection);
        const listed = await listMcpTools(connection);
        const client = connection.client;
        for (const tool of listed) {
          if (!wanted.has(tool.name)) continue;
          let name = mcpToolName(server.id, tool.name);
          for (let suffix = 2; name in tools; suffix += 1)
            name = `${mcpToolName(server.id, tool.name).slice(0, 60)}_${suffix}`;
          labels.set(name, mcpToolLabel(server.name, tool.name));
          tools[name] = dynamicTool({
            description: `${tool.description ?? tool.name} (tool "${tool.name}" of the MCP server “${server.name}”)`,
            inputSchema: jsonSchema(tool.inputSchema as JSONSchema7),
            execute: async (input, { abortSignal }) => {
              const result = await client.callTool(
                { name: tool.name, arguments: (input ?? {}) as Record<string, unknown> },
                { timeout: mcpToolCallTimeoutMs, ...(abortSignal ? { signal: abortSignal } : {}) },
              );
              return outputOf(result as CallToolResult);
            },
          });
        }
      } catch (error) {
        options.onServerFailure?.({
          mcpServerId: server.id,
          name: server.name,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }),
  );
  return {
    tools,
    labels,
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
