import type { paths } from '@letterset/api-client';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type NewLayout =
  paths['/api/v1/workspaces/{workspace_id}/layouts']['post']['requestBody']['content']['application/json'];

/**
 * Every cached layout of a workspace sits under `all`: the design system's pages, the new email's
 * picker and each layout the editor opened, so a write refreshes them all.
 */
export const layoutKeys = {
  all: (workspaceId: number) => ['workspaces', workspaceId, 'layouts'] as const,
  ofDesignSystem: (workspaceId: number, designSystemId: number) =>
    [...layoutKeys.all(workspaceId), { email_design_system_id: designSystemId }] as const,
};

function listLayoutsByName(
  workspaceId: number,
  designSystemId: number,
  page: { page?: number; per: number },
) {
  return unwrap(
    api.GET('/api/v1/workspaces/{workspace_id}/layouts', {
      params: {
        path: { workspace_id: workspaceId },
        query: { email_design_system_id: designSystemId, ...page, sort: 'name_asc' },
      },
    }),
  );
}

/** One page of a design system's layouts by name, for its Layouts tab. */
export function layoutPageQuery(workspaceId: number, designSystemId: number, page: number) {
  return queryOptions({
    queryKey: [...layoutKeys.ofDesignSystem(workspaceId, designSystemId), page],
    queryFn: () => listLayoutsByName(workspaceId, designSystemId, { page, per: 20 }),
    placeholderData: keepPreviousData,
  });
}

/** A design system's layouts by name (at most 100: the new-email picker shows them all). */
export function layoutsQuery(workspaceId: number, designSystemId: number) {
  return queryOptions({
    queryKey: [...layoutKeys.ofDesignSystem(workspaceId, designSystemId), 'all'],
    queryFn: () => listLayoutsByName(workspaceId, designSystemId, { per: 100 }),
  });
}

/** One layout, for the layout editor. */
export function layoutQuery(workspaceId: number, layoutId: number) {
  return queryOptions({
    queryKey: [...layoutKeys.all(workspaceId), layoutId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/layouts/{id}', {
          params: { path: { workspace_id: workspaceId, id: layoutId } },
        }),
      ),
    // The editor owns the layout once open; a background refetch would not be shown anyway.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** Creating a layout, then refreshing the workspace's layouts. */
export function useCreateLayout(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (layout: NewLayout) =>
      unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/layouts', {
          params: { path: { workspace_id: workspaceId } },
          body: layout,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: layoutKeys.all(workspaceId) }),
  });
}

/** Renaming a layout, then refreshing the workspace's layouts. */
export function useRenameLayout(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      unwrap(
        api.PATCH('/api/v1/workspaces/{workspace_id}/layouts/{id}', {
          params: { path: { workspace_id: workspaceId, id } },
          body: { name },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: layoutKeys.all(workspaceId) }),
  });
}

export function deleteLayout(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/layouts/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}
