/** The end of a person's OAuth sign-in to an MCP server: the authorization server's redirect back. */
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { completeOAuthFlow, isExpired, McpOAuthError, readOAuthState } from './mcp-oauth.ts';

/** The page of the web app a person returns to after connecting, unless they said another. */
function mcpConnectorsPage(services: Pick<Services, 'config'>, workspaceId: number): string {
  return `${services.config.appUrl}/workspaces/${workspaceId}/connectors/mcp`;
}

/** Where the OAuth callback sends the browser: a redirect, or a page when there is nowhere to go. */
export type OAuthCallbackOutcome = { redirect: string } | { page: { title: string; message: string } };

/**
 * The authorization server sent the browser back. A state Letterset did not make (or made
 * for someone else than the person signed in here) is refused; otherwise the code is exchanged
 * and the browser goes back to the app with `mcp_oauth=connected` or `mcp_oauth_error=<why>`.
 */
export async function finishOAuthCallback(
  services: Pick<Services, 'database' | 'secrets' | 'config' | 'log'>,
  signedIn: Principal | null,
  query: { code?: string; state?: string; iss?: string; error?: string; error_description?: string },
): Promise<OAuthCallbackOutcome> {
  const state = query.state ? readOAuthState(services, query.state) : null;
  if (!state)
    return {
      page: {
        title: 'This sign-in link is not valid',
        message: 'Go back to Letterset and click Connect on the MCP connector again.',
      },
    };
  const back = new URL(state.afterOauthRedirectUrl ?? mcpConnectorsPage(services, state.workspaceId));
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
    await completeOAuthFlow(services, state, { code: query.code, iss: query.iss });
  } catch (error) {
    if (!(error instanceof McpOAuthError)) throw error;
    services.log.info({ mcpServerId: state.mcpServerId, reason: error.message }, 'mcp oauth callback failed');
    return failed(error.message);
  }
  back.searchParams.set('mcp_oauth', 'connected');
  return { redirect: back.toString() };
}
