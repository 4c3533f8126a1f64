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

/** Asks a person, a role or an AI reviewer to review the email; an AI reviewer starts at once. */
export function askForReview(
  workspaceId: number,
  emailId: number,
  assignee: { assignee_type: AssigneeType; assignee_id: number },
) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_assignments', {
      params: { path: { workspace_id: workspaceId, email_id: emailId } },
      body: assignee,
    }),
  );
}

export function withdrawReviewRequest(workspaceId: number, emailId: number, assignmentId: number) {
  return unwrap(
    api.DELETE(
      '/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_assignments/{review_assignment_id}',
      {
        params: {
          path: { workspace_id: workspaceId, email_id: emailId, review_assignment_id: assignmentId },
        },
      },
    ),
  );
}

/** Runs an AI reviewer's review of the email again. */
export function runAiReviewAgain(workspaceId: number, emailId: number, assignmentId: number) {
  return unwrap(
    api.POST(
      '/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_assignments/{review_assignment_id}/run_ai_review',
      {
        params: {
          path: { workspace_id: workspaceId, email_id: emailId, review_assignment_id: assignmentId },
        },
      },
    ),
  );
}
