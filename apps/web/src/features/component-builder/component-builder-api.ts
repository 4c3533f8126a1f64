import type { components, paths } from '@letterset/api-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { unwrap } from '../../shared/api-error.ts';

export type Component = components['schemas']['Component'];
export type ComponentVersion = components['schemas']['ComponentVersion'];
export type ApiFieldDefinition = components['schemas']['FieldDefinition'];
export type ComponentChanges =
  paths['/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components/{id}']['patch']['requestBody']['content']['application/json'];

export const componentKeys = {
  all: (workspaceId: number, designSystemId: number) =>
    ['workspaces', workspaceId, 'design-systems', designSystemId, 'components'] as const,
  one: (workspaceId: number, designSystemId: number, id: number) =>
    ['workspaces', workspaceId, 'design-systems', designSystemId, 'components', id] as const,
};

/** Every component of a design system (the list is paginated: page through it 100 at a time). */
export function everyComponent(workspaceId: number, designSystemId: number): Promise<Component[]> {
  return allResults((page) =>
    unwrap(
      api.GET('/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components', {
        params: {
          path: { workspace_id: workspaceId, email_design_system_id: designSystemId },
          query: page,
        },
      }),
    ),
  );
}

/** The whole palette: the builder, layouts and brand profiles show and pick from every component. */
export function componentListQuery(workspaceId: number, designSystemId: number) {
  return queryOptions({
    queryKey: componentKeys.all(workspaceId, designSystemId),
    queryFn: async () => ({ results: await everyComponent(workspaceId, designSystemId) }),
  });
}

export function componentQuery(workspaceId: number, designSystemId: number, id: number) {
  return queryOptions({
    queryKey: componentKeys.one(workspaceId, designSystemId, id),
    queryFn: () =>
      unwrap(
        api.GET(
          '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components/{id}',
          {
            params: { path: { workspace_id: workspaceId, email_design_system_id: designSystemId, id } },
          },
        ),
      ),
  });
}

export function componentVersionsQuery(
  workspaceId: number,
  designSystemId: number,
  id: number,
  page: number,
) {
  return queryOptions({
    queryKey: [...componentKeys.one(workspaceId, designSystemId, id), 'versions', page],
    queryFn: () =>
      unwrap(
        api.GET(
          '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components/{id}/versions',
          {
            params: {
              path: { workspace_id: workspaceId, email_design_system_id: designSystemId, id },
              query: { page, per: 10 },
            },
          },
        ),
      ),
  });
}

export function updateComponent(
  workspaceId: number,
  designSystemId: number,
  id: number,
  body: ComponentChanges,
) {
  return unwrap(
    api.PATCH(
      '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components/{id}',
      {
        params: { path: { workspace_id: workspaceId, email_design_system_id: designSystemId, id } },
        body,
      },
    ),
  );
}

export function reorderComponents(workspaceId: number, designSystemId: number, componentIds: number[]) {
  return unwrap(
    api.POST(
      '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/reorder_components',
      {
        params: { path: { workspace_id: workspaceId, email_design_system_id: designSystemId } },
        body: { component_ids: componentIds },
      },
    ),
  );
}

export type NewComponent =
  paths['/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components']['post']['requestBody']['content']['application/json'];

export function createComponent(workspaceId: number, designSystemId: number, body: NewComponent) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components', {
      params: { path: { workspace_id: workspaceId, email_design_system_id: designSystemId } },
      body,
    }),
  );
}

export function deleteComponent(workspaceId: number, designSystemId: number, id: number) {
  return unwrap(
    api.DELETE(
      '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components/{id}',
      {
        params: { path: { workspace_id: workspaceId, email_design_system_id: designSystemId, id } },
      },
    ),
  );
}

/** Creates a component; the design system's palette is read again. */
export function useCreateComponent(workspaceId: number, designSystemId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewComponent) => createComponent(workspaceId, designSystemId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: componentKeys.all(workspaceId, designSystemId) }),
  });
}

/** Deletes a component; the design system's palette is read again. */
export function useDeleteComponent(workspaceId: number, designSystemId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteComponent(workspaceId, designSystemId, id),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: componentKeys.all(workspaceId, designSystemId) }),
  });
}
