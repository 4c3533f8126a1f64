import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCan } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { useEmailEvents } from '../live/use-email-events.ts';
import {
  reviewAssignmentKeys,
  reviewAssignmentsQuery,
  useRunAiReviewAgain,
} from './review-assignments-api.ts';

/** How often the list is read again while an AI review runs, in case its end event was missed. */
const runningRefreshMs = 4_000;

/**
 * The AI reviews of the email that are running or failed, at the top of the editor's Review tab:
 * a failed one says why and offers Try again, so that a failure is not mistaken for "no comments".
 */
export function AiReviewRuns({ workspaceId, emailId }: { workspaceId: number; emailId: number }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const assignments = useQuery({
    ...reviewAssignmentsQuery(workspaceId, emailId),
    refetchInterval: (query) =>
      query.state.data?.some((assignment) => assignment.ai_review_status === 'running')
        ? runningRefreshMs
        : false,
  });
  useEmailEvents(workspaceId, emailId, (event) => {
    if (event.type === 'review_changed' || event.type === 'resync')
      void queryClient.invalidateQueries({ queryKey: reviewAssignmentKeys.ofEmail(workspaceId, emailId) });
  });
  const runAgain = useRunAiReviewAgain(workspaceId, emailId, {});
  const runs = (assignments.data ?? []).filter(
    (assignment) => assignment.ai_review_status === 'running' || assignment.ai_review_status === 'failed',
  );
  if (runs.length === 0) return null;
  const allowed = can('submit_for_approval');
  return (
    <Stack gap="xs">
      {runs.map((assignment) =>
        assignment.ai_review_status === 'running' ? (
          <Group key={assignment.id} gap={6} wrap="nowrap" role="status">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {assignment.assignee.name} is reviewing the email…
            </Text>
          </Group>
        ) : (
          <Alert
            key={assignment.id}
            color="red"
            title={`${assignment.assignee.name}’s review failed`}
            py="xs"
          >
            <Stack gap="xs">
              <Text size="sm">
                {assignment.ai_review_error ?? 'The AI review stopped without saying why.'}
              </Text>
              {allowed && (
                <Group gap="xs">
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    leftSection={<IconRefresh size={14} />}
                    loading={runAgain.isPending && runAgain.variables?.id === assignment.id}
                    onClick={() => runAgain.mutate(assignment)}
                  >
                    Try again
                  </Button>
                </Group>
              )}
              {runAgain.error && runAgain.variables?.id === assignment.id && (
                <Text size="sm" c="red.8" role="alert">
                  {errorMessage(runAgain.error)}
                </Text>
              )}
            </Stack>
          </Alert>
        ),
      )}
    </Stack>
  );
}
