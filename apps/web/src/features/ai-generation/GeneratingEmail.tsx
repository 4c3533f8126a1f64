import type { components } from '@letterset/api-client';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useCan } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { emailQuery } from '../editor/editor-api.ts';
import { useEmailEvents } from '../live/use-email-events.ts';
import { useWorkspaceId } from '../shell/workspace.ts';
import { useRetryEmailGeneration } from './ai-generation-api.ts';

type Email = components['schemas']['Email'];

/** How often the page asks again while the AI writes, in case an event was missed. */
const backstopRefreshMs = 4_000;

/**
 * What the editor shows while AI writes an email: the brief and progress. The server announces the
 * end (and the content) on the email's event stream; the editor then opens on the written email.
 */
export function GeneratingEmail({ workspaceId, email }: { workspaceId: number; email: Email }) {
  const queryClient = useQueryClient();
  const { queryKey } = emailQuery(workspaceId, email.id);
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  useEmailEvents(workspaceId, email.id, (event) => {
    if (event.type === 'ai_generation_changed' || event.type === 'content_changed' || event.type === 'resync')
      void refresh();
  });
  useEffect(() => {
    const timer = setInterval(() => void queryClient.invalidateQueries({ queryKey }), backstopRefreshMs);
    return () => clearInterval(timer);
  }, [queryClient, queryKey]);

  return (
    <Center mih={360}>
      <Paper withBorder p="xl" maw={560} w="100%" aria-busy="true" aria-live="polite">
        <Stack align="center" gap="md">
          <Loader />
          <Title order={3}>AI is writing “{email.name}”</Title>
          <Text c="dimmed" ta="center" size="sm">
            It chooses sections from the design system and writes their values. The editor opens here when it
            is done; you can leave this page meanwhile.
          </Text>
          {email.prompt && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} w="100%">
              <Text span fw={600}>
                Brief:{' '}
              </Text>
              {email.prompt}
            </Text>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

/**
 * What the AI could not do, shown above the editor once it is done, until dismissed, with the brief
 * it was given: **Try again** runs it as it is, **Edit brief** changes it first. Either way the page
 * shows the AI writing again.
 */
export function GenerationProblems({ email, onDismiss }: { email: Email; onDismiss: () => void }) {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const retry = useRetryEmailGeneration(workspaceId, email.id);
  const [editedBrief, setEditedBrief] = useState<string | null>(null);
  if (email.ai_generation_status !== 'failed') return null;
  const canRetry = can('update_emails') && email.prompt !== null;
  return (
    <Alert
      color="red"
      title="The AI could not write all of this email"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onDismiss}
      mb="sm"
    >
      <Stack gap="xs">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {email.ai_generation_error ?? 'The AI stopped without saying why.'}
        </Text>
        {editedBrief === null ? (
          email.prompt && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              <Text span fw={600}>
                Brief:{' '}
              </Text>
              {email.prompt}
            </Text>
          )
        ) : (
          <Textarea
            label="Brief"
            rows={4}
            value={editedBrief}
            onChange={(event) => setEditedBrief(event.currentTarget.value)}
            error={editedBrief.trim() === '' ? 'Write what the email is about' : undefined}
          />
        )}
        {canRetry && (
          <Group gap="xs">
            {editedBrief === null ? (
              <>
                <Button size="xs" loading={retry.isPending} onClick={() => retry.mutate(undefined)}>
                  Try again
                </Button>
                <Button size="xs" variant="default" onClick={() => setEditedBrief(email.prompt ?? '')}>
                  Edit brief
                </Button>
              </>
            ) : (
              <>
                <Button
                  size="xs"
                  loading={retry.isPending}
                  disabled={editedBrief.trim() === ''}
                  onClick={() => retry.mutate(editedBrief)}
                >
                  Write it with this brief
                </Button>
                <Button size="xs" variant="default" onClick={() => setEditedBrief(null)}>
                  Cancel
                </Button>
              </>
            )}
          </Group>
        )}
        {retry.error && (
          <Text size="sm" c="red.8" role="alert">
            {errorMessage(retry.error)}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
