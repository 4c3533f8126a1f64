import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { unwrap } from '../../shared/api-error.ts';

export type AiReviewer = components['schemas']['AiReviewer'];

export const aiReviewerKeys = { all: (workspaceId: number) => ['ai_reviewers', workspaceId] as const };

export const aiReviewerListQuery = (workspaceId: number, page: number, per: number) =>
  queryOptions({
    queryKey: [...aiReviewerKeys.all(workspaceId), 'list', { page, per }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/ai_reviewers', {
          params: { path: { workspace_id: workspaceId }, query: { page, per } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Every AI reviewer of the workspace, for pickers (workspaces have a handful). */
export const allAiReviewersQuery = (workspaceId: number) =>
  queryOptions({
    queryKey: [...aiReviewerKeys.all(workspaceId), 'all'],
    queryFn: () =>
      allResults((page) =>
        unwrap(
          api.GET('/api/v1/workspaces/{workspace_id}/ai_reviewers', {
            params: { path: { workspace_id: workspaceId }, query: page },
          }),
        ),
      ),
  });

export type AiReviewerFields = Pick<AiReviewer, 'name' | 'review_instructions'>;

export function saveAiReviewer(workspaceId: number, reviewer: AiReviewer | null, fields: AiReviewerFields) {
  return unwrap(
    reviewer
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/ai_reviewers/{id}', {
          params: { path: { workspace_id: workspaceId, id: reviewer.id } },
          body: fields,
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/ai_reviewers', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

export function deleteAiReviewer(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/ai_reviewers/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}
