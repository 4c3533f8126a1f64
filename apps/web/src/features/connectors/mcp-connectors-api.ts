import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { ApiError, unwrap } from '../../shared/api-error.ts';

export type McpServer = components['schemas']['McpServer'];
export type McpServerTool = components['schemas']['McpServerTool'];
export type EnabledMcpServer = components['schemas']['EnabledMcpServer'];

export const mcpServerKeys = {
  all: (workspaceId: number) => ['workspaces', workspaceId, 'mcp-servers'] as const,
  enabled: (workspaceId: number) => ['workspaces', workspaceId, 'enabled-mcp-servers'] as const,
};

export const mcpServerListQuery = (workspaceId: number, page: number, per: number) =>
  queryOptions({
    queryKey: [...mcpServerKeys.all(workspaceId), 'list', page, per],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/mcp_servers', {
          params: { path: { workspace_id: workspaceId }, query: { page, per } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The caller's own connections (at most 100 servers per workspace are shown connected). */
export const enabledMcpServersQuery = (workspaceId: number) =>
  queryOptions({
    queryKey: [...mcpServerKeys.enabled(workspaceId), 'list'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/enabled_mcp_servers', {
          params: { path: { workspace_id: workspaceId }, query: { page: 1, per: 100 } },
        }),
      ),
  });

/** What refreshes after a write: the servers (their health, tools, connection counts), and the caller's connections. */
export function useRefreshMcpServers(workspaceId: number) {
  const queryClient = useQueryClient();
  const servers = () => queryClient.invalidateQueries({ queryKey: mcpServerKeys.all(workspaceId) });
  const connections = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: mcpServerKeys.enabled(workspaceId) }), servers()]);
  return { servers, connections };
}

export interface McpServerFields {
  name: string;
  url: string;
  headers: Record<string, string>;
}

export function saveMcpServer(workspaceId: number, server: McpServer | null, fields: McpServerFields) {
  return unwrap(
    server
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/mcp_servers/{id}', {
          params: { path: { workspace_id: workspaceId, id: server.id } },
          body: fields,
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/mcp_servers', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

export function deleteMcpServer(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/mcp_servers/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

/** Asks the server for its tools now; the answer is the server with its new health and tools. */
export function checkMcpServerHealth(workspaceId: number, id: number) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/mcp_servers/{id}/perform_healthcheck', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

/** Offers a tool to the AI chat or stops offering it; the answer is the server with its tools. */
export function setMcpServerToolEnabled(
  workspaceId: number,
  serverId: number,
  toolId: number,
  enabled: boolean,
) {
  return unwrap(
    api.PATCH('/api/v1/workspaces/{workspace_id}/mcp_servers/{mcp_server_id}/mcp_server_tools/{id}', {
      params: { path: { workspace_id: workspaceId, mcp_server_id: serverId, id: toolId } },
      body: { enabled },
    }),
  );
}

/**
 * Connects the caller's account to a server. An OAuth server answers with where to sign in, and
 * the browser comes back to `returnUrl`; when the server refuses that address (the app runs on
 * another origin than APP_URL, as a development server does), it asks again for the server's
 * default page instead.
 */
export async function connectMcpServer(workspaceId: number, serverId: number, returnUrl: string) {
  const enable = (afterOauthRedirectUrl?: string) =>
    unwrap(
      api.POST('/api/v1/workspaces/{workspace_id}/enabled_mcp_servers', {
        params: { path: { workspace_id: workspaceId } },
        body: {
          mcp_server_id: serverId,
          ...(afterOauthRedirectUrl ? { after_oauth_redirect_url: afterOauthRedirectUrl } : {}),
        },
      }),
    );
  try {
    return await enable(returnUrl);
  } catch (error) {
    if (error instanceof ApiError && error.fieldErrors.after_oauth_redirect_url) return enable();
    throw error;
  }
}

export function disconnectMcpServer(workspaceId: number, connectionId: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/enabled_mcp_servers/{id}', {
      params: { path: { workspace_id: workspaceId, id: connectionId } },
    }),
  );
}

/** Header rows as the form edits them; stored values arrive masked and are sent back as they are. */
export interface HeaderRow {
  name: string;
  value: string;
}

export function headerRows(headers: Record<string, string> | undefined): HeaderRow[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({ name, value }));
}

/** What a save sends: the rows with a name, as `{name: value}` (a masked value keeps the stored one). */
export function headersToSend(rows: readonly HeaderRow[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name !== '') headers[name] = row.value;
  }
  return headers;
}

/** Sends the browser to another site (the authorization server's sign-in): one place, so tests can watch it. */
export function goToSignIn(url: string): void {
  window.location.assign(url);
}

/** How the page reads the `mcp_oauth` / `mcp_oauth_error` the OAuth callback adds when it sends the browser back. */
export interface OAuthReturn {
  connected: boolean;
  error: string | null;
}

export function oauthReturnOf(search: Record<string, unknown>): OAuthReturn | null {
  const error = typeof search.mcp_oauth_error === 'string' ? search.mcp_oauth_error : null;
  const connected = search.mcp_oauth === 'connected';
  return connected || error ? { connected, error } : null;
}
