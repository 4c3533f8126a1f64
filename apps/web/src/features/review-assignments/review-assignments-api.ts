import type { components } from '@letterset/api-client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { unwrap } from '../../shared/api-error.ts';

export type ReviewAssignment = components['schemas']['ReviewAssignment'];
export type AssigneeType = ReviewAssignment['assignee_type'];

export const reviewAssignmentKeys = {
  ofEmail: (workspaceId: number, emailId: number) =>
    ['emails', workspaceId, emailId, 'review_assignments'] as const,
};

/** Who is asked to review the email (a few people at most: all of them). */
export const reviewAssignmentsQuery = (workspaceId: number, emailId: number) =>
  queryOptions({
    queryKey: reviewAssignmentKeys.ofEmail(workspaceId, emailId),
    queryFn: () =>
      allResults((page) =>
        unwrap(
          api.GET('/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_assignments', {
            params: { path: { workspace_id: workspaceId, email_id: emailId }, query: page },
          }),
        ),
      ),
  });

export const assigneeTypeLabels: Record<AssigneeType, string> = {
  User: 'A person',
  Role: 'A role',
  AiReviewer: 'An AI reviewer',
};
