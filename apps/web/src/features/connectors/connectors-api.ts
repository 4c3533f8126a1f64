import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type Connector = components['schemas']['Connector'];
export type ConnectorIntegration = components['schemas']['ConnectorIntegration'];
export type SetupField = components['schemas']['ConnectorSetupField'];
export type ConnectionTestResult = components['schemas']['ConnectionTestResult'];
export type IntegrationName = Connector['integration_name'];

export const connectorKeys = {
  all: (workspaceId: number) => ['workspaces', workspaceId, 'connectors'] as const,
};

export const connectorListQuery = (workspaceId: number, page: number, per: number) =>
  queryOptions({
    queryKey: [...connectorKeys.all(workspaceId), 'list', page, per],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/connectors', {
          params: { path: { workspace_id: workspaceId }, query: { page, per } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The platforms and their setup fields: what the form asks for a new connector. */
export const integrationsQuery = queryOptions({
  queryKey: ['connector-integrations'],
  queryFn: () => unwrap(api.GET('/api/v1/connector_integrations')),
  staleTime: Number.POSITIVE_INFINITY,
});

/** Refreshes a workspace's connectors after a write (the workspace given, as a sign-in names its own). */
export function useRefreshConnectors() {
  const queryClient = useQueryClient();
  return useCallback(
    (workspaceId: number) => queryClient.invalidateQueries({ queryKey: connectorKeys.all(workspaceId) }),
    [queryClient],
  );
}

export interface ConnectorFields {
  name: string;
  integration_name: IntegrationName;
  settings: Record<string, string>;
}

/** Creates a connector, or changes a stored one's name and settings (its platform stays). */
export function saveConnector(workspaceId: number, connector: Connector | null, fields: ConnectorFields) {
  return unwrap(
    connector
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/connectors/{id}', {
          params: { path: { workspace_id: workspaceId, id: connector.id } },
          body: { name: fields.name, settings: fields.settings },
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/connectors', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

export function deleteConnector(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/connectors/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

/** Tries the saved settings against the platform. */
export function testConnection(workspaceId: number, id: number) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/connectors/{id}/test', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

/**
 * Hands the code and state Marketing Cloud sent back to the API, once: a code works once, so the
 * answer (the connector) is kept and never fetched again.
 */
export const oauthCallbackQuery = (code: string, state: string) =>
  queryOptions({
    queryKey: ['connector-oauth-callback', code, state],
    queryFn: () => unwrap(api.POST('/api/v1/connectors/oauth_callback', { body: { code, state } })),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

/** The settings a form starts with: stored values (secrets masked), else each field's default. */
export function initialSettings(fields: readonly SetupField[], stored: Record<string, string> = {}) {
  return Object.fromEntries(fields.map((field) => [field.name, stored[field.name] ?? field.default ?? '']));
}

/**
 * What a save sends: every value for a new connector; for a stored one, what changed (a secret
 * still showing its mask is left out, so the stored secret stays).
 */
export function settingsToSend(
  fields: readonly SetupField[],
  values: Record<string, string>,
  stored: Record<string, string> | null,
): Record<string, string> {
  const sent: Record<string, string> = {};
  for (const field of fields) {
    const value = (values[field.name] ?? '').trim();
    if (stored === null) {
      if (value !== '') sent[field.name] = value;
    } else if (value !== (stored[field.name] ?? '')) sent[field.name] = value;
  }
  return sent;
}
