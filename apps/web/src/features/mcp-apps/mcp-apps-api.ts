import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type McpApp = components['schemas']['McpApp'];
export type CreatedMcpApp = components['schemas']['CreatedMcpApp'];
export type McpAppInput = Pick<McpApp, 'name' | 'redirect_uris'>;

export const mcpAppKeys = { all: ['mcp-apps'] as const };

export const mcpAppsQuery = (page: number, per: number) =>
  queryOptions({
    queryKey: [...mcpAppKeys.all, { page, per }],
    queryFn: () => unwrap(api.GET('/api/v1/mcp_apps', { params: { query: { page, per } } })),
    placeholderData: keepPreviousData,
  });

/** Registering an app, whose answer carries its client secret this once; the list refreshes behind it. */
export function useRegisterMcpApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: McpAppInput) => unwrap(api.POST('/api/v1/mcp_apps', { body: fields })),
    // Not awaited: the secret is shown as soon as the app exists, not after the list reloads.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mcpAppKeys.all });
    },
  });
}

/** Changing an app's name and redirect URIs, then refreshing the list. */
export function useUpdateMcpApp(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: McpAppInput) =>
      unwrap(api.PATCH('/api/v1/mcp_apps/{id}', { params: { path: { id } }, body: fields })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mcpAppKeys.all }),
  });
}

export function deleteMcpApp(id: number) {
  return unwrap(api.DELETE('/api/v1/mcp_apps/{id}', { params: { path: { id } } }));
}

/** The app an authorization request names, as the consent screen shows it (404 outside your organization). */
export const mcpClientQuery = (clientId: string) =>
  queryOptions({
    queryKey: ['mcp-consent', clientId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/mcp_consent/clients/{client_id}', { params: { path: { client_id: clientId } } }),
      ),
    retry: false,
  });

/** The authorization request's parameters, as GET /oauth/authorize forwards them to the consent screen. */
export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  state?: string;
  resource?: string;
  scope?: string;
}

/** Allow or Deny; the answer is where the browser goes next (the assistant's redirect URI). */
export async function answerConsent(request: AuthorizationRequest, allow: boolean): Promise<string> {
  const answer = await unwrap(
    api.POST('/api/v1/mcp_consent', {
      body: {
        allow,
        client_id: request.client_id,
        redirect_uri: request.redirect_uri,
        code_challenge: request.code_challenge,
        code_challenge_method: 'S256',
        ...(request.state !== undefined ? { state: request.state } : {}),
        ...(request.resource !== undefined ? { resource: request.resource } : {}),
        ...(request.scope !== undefined ? { scope: request.scope } : {}),
      },
    }),
  );
  return answer.redirect_url;
}
