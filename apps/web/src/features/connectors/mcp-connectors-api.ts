import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

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
