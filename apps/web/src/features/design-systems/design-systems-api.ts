import type { components, paths } from '@letterset/api-client';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../app/api.ts';
import { ApiError, errorMessage, unwrap } from '../../shared/api-error.ts';

export type DesignSystem = components['schemas']['EmailDesignSystem'];
export type DesignSystemJson = components['schemas']['EmailDesignSystemJson'];
export type ArchivedFilter = 'false' | 'true' | 'all';

export interface DesignSystemListParams {
  page: number;
  search: string;
  archived: ArchivedFilter;
}

export const designSystemKeys = {
  all: (workspaceId: number) => ['workspaces', workspaceId, 'design-systems'] as const,
  one: (workspaceId: number, id: number) => ['workspaces', workspaceId, 'design-systems', id] as const,
};

export function designSystemListQuery(workspaceId: number, params: DesignSystemListParams) {
  return queryOptions({
    queryKey: [...designSystemKeys.all(workspaceId), 'list', params],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/email_design_systems', {
          params: {
            path: { workspace_id: workspaceId },
            query: {
              page: params.page,
              per: 20,
              archived: params.archived,
              ...(params.search ? { search: params.search } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function designSystemQuery(workspaceId: number, id: number) {
  return queryOptions({
    queryKey: designSystemKeys.one(workspaceId, id),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/email_design_systems/{id}', {
          params: { path: { workspace_id: workspaceId, id } },
        }),
      ),
  });
}

/**
 * Refreshes everything cached under the workspace's design systems after a write: the lists, each
 * system, and their components and brand profiles, which live under a system's key.
 */
export function useRefreshDesignSystems(workspaceId: number) {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: designSystemKeys.all(workspaceId) }),
    [queryClient, workspaceId],
  );
}

export type NewDesignSystem =
  paths['/api/v1/workspaces/{workspace_id}/email_design_systems']['post']['requestBody']['content']['application/json'];

/** Creates an empty design system, or one the AI designs from a brief (`create_with_ai`). */
export function createDesignSystem(workspaceId: number, body: NewDesignSystem) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/email_design_systems', {
      params: { path: { workspace_id: workspaceId } },
      body,
    }),
  );
}

export type DesignSystemChanges =
  paths['/api/v1/workspaces/{workspace_id}/email_design_systems/{id}']['patch']['requestBody']['content']['application/json'];

export function updateDesignSystem(workspaceId: number, id: number, body: DesignSystemChanges) {
  return unwrap(
    api.PATCH('/api/v1/workspaces/{workspace_id}/email_design_systems/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
      body,
    }),
  );
}

export function cloneDesignSystem(workspaceId: number, id: number) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/email_design_systems/{id}/clone', {
      params: { path: { workspace_id: workspaceId, id } },
      body: {},
    }),
  );
}

export function deleteDesignSystem(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/email_design_systems/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

/** Creates a design system from an exported JSON document. */
export function importDesignSystem(workspaceId: number, document: DesignSystemJson) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/email_design_systems/import', {
      params: { path: { workspace_id: workspaceId } },
      body: document,
    }),
  );
}

/** Replaces a design system with an exported JSON document (its components matched by name). */
export function syncDesignSystem(workspaceId: number, id: number, document: DesignSystemJson) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/email_design_systems/{id}/sync', {
      params: { path: { workspace_id: workspaceId, id } },
      body: document,
    }),
  );
}

/** Saves the export JSON as a file named after the system. */
export async function downloadDesignSystemJson(workspaceId: number, system: DesignSystem): Promise<void> {
  const json = await unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/email_design_systems/{id}/export', {
      params: { path: { workspace_id: workspaceId, id: system.id } },
    }),
  );
  const blob = new Blob([JSON.stringify(json, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${system.name.replace(/[^\w.-]+/g, '-').toLowerCase() || 'design-system'}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after this task; revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A failure in words: a 422's own messages (e.g. why an export is refused) rather than its summary. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
    return Object.entries(error.fieldErrors)
      .map(([path, messages]) => (path === 'base' ? messages.join('; ') : `${path} ${messages.join('; ')}`))
      .join('. ');
  }
  return errorMessage(error);
}
