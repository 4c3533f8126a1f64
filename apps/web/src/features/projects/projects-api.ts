import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import type { RequestBody } from '../../shared/request-body.ts';

export type Project = components['schemas']['Project'];
export type ProjectFields = RequestBody<'/api/v1/workspaces/{workspace_id}/projects', 'post'>;
export type Team = components['schemas']['Team'];

export const projectsPerPage = 20;

/** Every cached list and project of the workspace: what a project's change makes stale. */
export const projectsKey = (workspaceId: number) => ['workspaces', workspaceId, 'projects'] as const;

export function projectsQuery(workspaceId: number, search: string, page: number) {
  return queryOptions({
    queryKey: [...projectsKey(workspaceId), { search, page }],
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
    queryKey: [...projectsKey(workspaceId), projectId],
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

/** Creates a project, or changes `existing`. */
export function saveProject(workspaceId: number, existing: Project | null, fields: ProjectFields) {
  return unwrap(
    existing
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/projects/{id}', {
          params: { path: { workspace_id: workspaceId, id: existing.id } },
          body: fields,
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/projects', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

/** The API keeps a project that still has emails (422) unless `deleteEmails` is set. */
export function deleteProject(workspaceId: number, projectId: number, deleteEmails: boolean) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/projects/{id}', {
      params: {
        path: { workspace_id: workspaceId, id: projectId },
        query: { delete_emails: deleteEmails },
      },
    }),
  );
}

/**
 * The workspace's first project and, in its pagination, how many there are: the start list ticks
 * off its project step from the total and offers the only project for the first email. The key
 * sits under the projects' own, so creating a project refreshes it.
 */
export const firstProjectQuery = (workspaceId: number) =>
  queryOptions({
    queryKey: ['workspaces', workspaceId, 'projects', 'start-list'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/projects', {
          params: { path: { workspace_id: workspaceId }, query: { per: 1 } },
        }),
      ),
  });
