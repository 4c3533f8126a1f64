import type { components, paths } from '@letterset/api-client';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type EmailSummary = components['schemas']['EmailSummary'];
export type EmailStatus = EmailSummary['status'];

export const emailsPerPage = 20;

/** What a list of emails may be narrowed to across the workspace: reviews waiting on me, my submissions. */
type WorkspaceEmailsFilter = {
  awaiting_my_review?: boolean;
  submitted_by_me?: boolean;
  status?: EmailStatus;
};

/** The first `per` emails of the workspace, most recently changed first; `name` tells lists apart in the cache. */
export const workspaceEmailsQuery = (
  workspaceId: number,
  name: string,
  filter: WorkspaceEmailsFilter,
  per: number,
) =>
  queryOptions({
    queryKey: ['workspaces', workspaceId, 'emails', 'home', name],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails', {
          params: { path: { workspace_id: workspaceId }, query: { per, ...filter } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The AI states a list can be narrowed to: being written, or failed (to look at or try again). */
export type AiGenerationFilter = 'generating' | 'failed';
export const aiGenerationFilterOptions: { value: AiGenerationFilter; label: string }[] = [
  { value: 'failed', label: 'AI failed' },
  { value: 'generating', label: 'AI writing' },
];

export function projectEmailsQuery(
  workspaceId: number,
  projectId: number,
  filters: {
    search: string;
    status: EmailStatus | null;
    aiGeneration?: AiGenerationFilter | null;
    page: number;
  },
) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'emails', { projectId, ...filters }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails', {
          params: {
            path: { workspace_id: workspaceId },
            query: {
              project_id: projectId,
              page: filters.page,
              per: emailsPerPage,
              ...(filters.search ? { search: filters.search } : {}),
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.aiGeneration ? { ai_generation_status: filters.aiGeneration } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** Design systems an email can be made from here: not archived, including shared ones. */
export function usableDesignSystemsQuery(workspaceId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'email-design-systems', 'usable'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/email_design_systems', {
          params: { path: { workspace_id: workspaceId }, query: { per: 100, archived: 'false' } },
        }),
      ),
  });
}

export type NewEmail =
  paths['/api/v1/workspaces/{workspace_id}/emails']['post']['requestBody']['content']['application/json'];
export type EmailCloneRequest =
  paths['/api/v1/workspaces/{workspace_id}/emails/{id}/clone']['post']['requestBody']['content']['application/json'];

/** A new email in a project: empty, from a layout, or written by AI from a brief. */
export function createEmail(workspaceId: number, body: NewEmail) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails', {
      params: { path: { workspace_id: workspaceId } },
      body,
    }),
  );
}

/** A draft copy of the email under a new name, its copy rewritten by AI if asked. */
export function cloneEmail(workspaceId: number, emailId: number, body: EmailCloneRequest) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/clone', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
      body,
    }),
  );
}

export function deleteEmail(workspaceId: number, emailId: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/emails/{id}', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
    }),
  );
}

/** Deletes an email; the workspace's lists of emails are read again. */
export function useDeleteEmail(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (emailId: number) => deleteEmail(workspaceId, emailId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'emails'] }),
  });
}
