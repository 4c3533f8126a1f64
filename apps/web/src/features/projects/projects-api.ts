import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type Project = components['schemas']['Project'];
export type Team = components['schemas']['Team'];

export const projectsPerPage = 20;

export function projectsQuery(workspaceId: number, search: string, page: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'projects', { search, page }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/projects', {
          params: {
            path: { workspace_id: workspaceId },
            query: { page, per: projectsPerPage, ...(search ? { search } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function projectQuery(workspaceId: number, projectId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'projects', projectId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/projects/{id}', {
          params: { path: { workspace_id: workspaceId, id: projectId } },
        }),
      ),
  });
}

/** The workspace's teams, for the project form's team choice (a workspace has few). */
export function teamsQuery(workspaceId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'teams'],
    queryFn: () =>
      unwrap(api.GET('/api/v1/teams', { params: { query: { workspace_id: workspaceId, per: 100 } } })),
  });
}
