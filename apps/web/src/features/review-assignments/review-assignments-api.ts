import type { components } from '@letterset/api-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
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

interface MutationCallbacks<Result> {
  onSuccess?: (result: Result) => void;
  onError?: (error: Error) => void;
}

/** Who is asked is read again once a change is answered (after the caller's own reaction to it). */
function useReviewAssignmentMutation<Variables, Result>(
  workspaceId: number,
  emailId: number,
  mutationFn: (variables: Variables) => Promise<Result>,
  callbacks: MutationCallbacks<Result>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (result: Result) => {
      callbacks.onSuccess?.(result);
      await queryClient.invalidateQueries({ queryKey: reviewAssignmentKeys.ofEmail(workspaceId, emailId) });
    },
    onError: callbacks.onError,
  });
}

export function useAskForReview(
  workspaceId: number,
  emailId: number,
  callbacks: MutationCallbacks<ReviewAssignment>,
) {
  return useReviewAssignmentMutation(
    workspaceId,
    emailId,
    (assignee: { assignee_type: AssigneeType; assignee_id: number }) =>
      askForReview(workspaceId, emailId, assignee),
    callbacks,
  );
}

export function useWithdrawReviewRequest(
  workspaceId: number,
  emailId: number,
  callbacks: MutationCallbacks<unknown>,
) {
  return useReviewAssignmentMutation(
    workspaceId,
    emailId,
    (assignment: ReviewAssignment) => withdrawReviewRequest(workspaceId, emailId, assignment.id),
    callbacks,
  );
}

export function useRunAiReviewAgain(
  workspaceId: number,
  emailId: number,
  callbacks: MutationCallbacks<unknown>,
) {
  return useReviewAssignmentMutation(
    workspaceId,
    emailId,
    (assignment: ReviewAssignment) => runAiReviewAgain(workspaceId, emailId, assignment.id),
    callbacks,
  );
}
