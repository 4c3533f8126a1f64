import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
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
