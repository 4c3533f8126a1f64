import type { components, paths } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
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
