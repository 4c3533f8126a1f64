import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { McpConnectorsPage } from '../../../../features/connectors/McpConnectorsPage.tsx';
import { oauthReturnOf } from '../../../../features/connectors/mcp-connectors-api.ts';

interface McpConnectorsSearch {
  mcp_oauth?: string;
  mcp_oauth_error?: string;
  mcp_server_id?: string;
}

const text = (value: unknown) =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/**
 * Connectors › MCP connectors. The OAuth callback sends the browser back here with
 * mcp_oauth=connected or mcp_oauth_error=<why>; the page says so until it is dismissed.
 */
export const Route = createFileRoute('/_app/workspaces/$workspaceId/connectors_/mcp')({
  validateSearch: (search: Record<string, unknown>): McpConnectorsSearch => {
    const parsed: McpConnectorsSearch = {};
    for (const key of ['mcp_oauth', 'mcp_oauth_error', 'mcp_server_id'] as const) {
      const value = text(search[key]);
      if (value !== undefined) parsed[key] = value;
    }
    return parsed;
  },
  component: McpConnectorsRoute,
});

function McpConnectorsRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return (
    <McpConnectorsPage
      oauthReturn={oauthReturnOf(search)}
      onOAuthReturnSeen={() => navigate({ search: {}, replace: true })}
    />
  );
}
