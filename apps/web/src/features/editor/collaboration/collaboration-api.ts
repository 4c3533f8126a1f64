import type { EmailPresence } from '@letterset/core';
import { api } from '../../../app/api.ts';
import { unwrap } from '../../../shared/api-error.ts';
import type { Email } from '../editor-api.ts';

/** The email as the server holds it now (someone else's save was announced). */
export function fetchEmail(workspaceId: number, emailId: number): Promise<Email> {
  return unwrap(
    api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
    }),
  );
}

/** Says this tab has the email open with `selectedInstanceId` selected; answers everyone who has it open. */
export async function announcePresence(
  workspaceId: number,
  emailId: number,
  sessionId: string,
  selectedInstanceId: string | null,
): Promise<EmailPresence[]> {
  const answer = await unwrap(
    api.PUT('/api/v1/workspaces/{workspace_id}/emails/{id}/presence', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
      body: { session_id: sessionId, selected_instance_id: selectedInstanceId },
    }),
  );
  return answer.present;
}

/** Says this tab closed the email; `keepalive` lets the request outlive a closing tab. */
export function leavePresence(workspaceId: number, emailId: number, sessionId: string): Promise<void> {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/emails/{id}/presence/{session_id}', {
      params: { path: { workspace_id: workspaceId, id: emailId, session_id: sessionId } },
      keepalive: true,
    }),
  ).then(() => undefined);
}
