import type { components, operations } from '@letterset/api-client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { ApiError, unwrap } from '../../shared/api-error.ts';
import { allWorkspaceMembersQuery, type User as Member } from '../settings/settings-api.ts';

export type Email = components['schemas']['Email'];
export type ApprovalWorkflow = components['schemas']['ApprovalWorkflow'];
export type SubmitForApprovalBody =
  operations['submitEmailForApproval']['requestBody']['content']['application/json'];
type Locale = NonNullable<
  operations['sendTestEmail']['requestBody']['content']['application/json']['locale']
>;
export type ReviewDecision = 'approved' | 'request_changes';

/** A reusable review group as the submit dialog offers it. */
export type ReviewGroupChoice = components['schemas']['ReviewGroup'];

export const workflowKey = (workspaceId: number, emailId: number) =>
  ['workspaces', workspaceId, 'emails', emailId, 'approval_workflow'] as const;

/** The email's latest workflow, or null when it was never submitted. */
export function workflowQuery(workspaceId: number, emailId: number) {
  return queryOptions({
    queryKey: workflowKey(workspaceId, emailId),
    queryFn: async (): Promise<ApprovalWorkflow | null> => {
      try {
        return await unwrap(
          api.GET('/api/v1/workspaces/{workspace_id}/emails/{email_id}/approval_workflow', {
            params: { path: { workspace_id: workspaceId, email_id: emailId } },
          }),
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

export function fetchEmail(workspaceId: number, emailId: number): Promise<Email> {
  return unwrap(
    api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
    }),
  );
}

/** The organization's reusable review groups, every page of them. */
export function reviewGroupsQuery() {
  return queryOptions({
    queryKey: ['review_groups', 'reusable', 'all'],
    queryFn: (): Promise<ReviewGroupChoice[]> =>
      allResults((page) => unwrap(api.GET('/api/v1/review_groups', { params: { query: page } }))),
  });
}

/** People who can be asked to review in this workspace: its members who have joined. */
export function workspaceMembersQuery(workspaceId: number) {
  return queryOptions({
    ...allWorkspaceMembersQuery(workspaceId),
    select: (members: Member[]) => members.filter((member) => member.invitation_accepted_at),
  });
}

export function submitForApproval(workspaceId: number, emailId: number, body: SubmitForApprovalBody) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{email_id}/approval_workflow', {
      params: { path: { workspace_id: workspaceId, email_id: emailId } },
      body,
    }),
  );
}

export function decide(workspaceId: number, emailId: number, decision: ReviewDecision, comment: string) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_approvals', {
      params: { path: { workspace_id: workspaceId, email_id: emailId } },
      body: { decision, review_comment: comment.trim() ? comment : null },
    }),
  );
}

/**
 * Publishes the email; with force, from any status, overriding the blocking pre-send problems whose
 * codes are acknowledged (the API refuses when they are not the ones it finds).
 */
export function publish(
  workspaceId: number,
  emailId: number,
  force: boolean,
  acknowledgedProblems?: readonly string[],
) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/publish', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
      body: force ? { force, acknowledged_problems: [...(acknowledgedProblems ?? [])] } : { force },
    }),
  );
}

export function convertToDraft(workspaceId: number, emailId: number) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/convert_to_draft', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
    }),
  );
}

export function sendTest(workspaceId: number, emailId: number, recipients: string[], locale: string) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/test_sends', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
      body: { recipients, locale: locale as Locale },
    }),
  );
}
