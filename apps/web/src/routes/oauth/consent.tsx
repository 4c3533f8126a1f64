import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadMe, loadSetupRequired } from '../../app/session.ts';
import { McpConsentPage } from '../../features/mcp-apps/McpConsentPage.tsx';
import type { AuthorizationRequest } from '../../features/mcp-apps/mcp-apps-api.ts';

type ConsentSearch = Partial<Record<keyof AuthorizationRequest, string>>;

const parameterNames = [
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'resource',
  'scope',
] as const;

/** The request as GET /oauth/authorize forwarded it, or null when a required part is missing. */
function authorizationRequestOf(search: ConsentSearch): AuthorizationRequest | null {
  const { client_id, redirect_uri, code_challenge, code_challenge_method } = search;
  if (!client_id || !redirect_uri || !code_challenge || !code_challenge_method) return null;
  return { ...search, client_id, redirect_uri, code_challenge, code_challenge_method };
}

/** Outside the app's shell: an assistant's authorization request lands here, signed in first. */
export const Route = createFileRoute('/oauth/consent')({
  validateSearch: (search: Record<string, unknown>): ConsentSearch =>
    Object.fromEntries(
      parameterNames.flatMap((name) => (typeof search[name] === 'string' ? [[name, search[name]]] : [])),
    ),
  beforeLoad: async ({ context, location }) => {
    if (await loadMe(context.queryClient)) return;
    if (await loadSetupRequired(context.queryClient)) throw redirect({ to: '/setup' });
    throw redirect({ to: '/sign-in', search: { redirect: location.href } });
  },
  component: ConsentRoute,
});

function ConsentRoute() {
  return <McpConsentPage request={authorizationRequestOf(Route.useSearch())} />;
}
