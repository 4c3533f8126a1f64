import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import { emailQuery } from '../editor/editor-api.ts';

/**
 * Runs an email's AI generation again, with its brief or an edited one. The answer (the email,
 * generating) replaces the opened email, so the editor shows the AI writing; the lists show it too.
 */
export function useRetryEmailGeneration(workspaceId: number, emailId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prompt: string | undefined) =>
      unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/ai_generation/retry', {
          params: { path: { workspace_id: workspaceId, id: emailId } },
          body: prompt === undefined ? {} : { prompt },
        }),
      ),
    onSuccess: async (email) => {
      queryClient.setQueryData(emailQuery(workspaceId, emailId).queryKey, email);
      await queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'emails'], exact: false });
    },
  });
}
