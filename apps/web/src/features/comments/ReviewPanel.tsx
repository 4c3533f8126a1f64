import { Alert, Button, CloseButton, Group, Paper, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMapPin } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useCan, useMe } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { useEditorSession } from '../editor/EditorContext.tsx';
import { useEmailEvents } from '../live/use-email-events.ts';
import { AiReviewRuns } from '../review-assignments/AiReviewRuns.tsx';
import { CommentComposer } from './CommentComposer.tsx';
import { CommentThreads } from './CommentThreads.tsx';
import { type CommentCalls, commentCalls, commentKeys, commentsQuery } from './comments-api.ts';
import { PinOverlay } from './PinOverlay.tsx';
import type { ReviewState } from './review-state.ts';
import { groupThreads, pinNumbers, shownThreads } from './threads.ts';

/** The comment writes, each followed by a fresh list; a failed delete or resolve is told here. */
function useCommentCalls(workspaceId: number, emailId: number, locale: string): CommentCalls {
  const queryClient = useQueryClient();
  return useMemo(() => {
    const calls = commentCalls(workspaceId, emailId, locale);
    const refresh = () =>
      queryClient.invalidateQueries({ queryKey: commentKeys.ofLocale(workspaceId, emailId, locale) });
    const told = async <T,>(call: Promise<T>): Promise<T> => {
      try {
        return await call;
      } catch (error) {
        notifications.show({ color: 'red', message: errorMessage(error) });
        throw error;
      } finally {
        await refresh();
      }
    };
    return {
      create: async (input) => {
        const created = await calls.create(input);
        await refresh();
        return created;
      },
      update: async (id, body) => {
        const updated = await calls.update(id, body);
        await refresh();
        return updated;
      },
      remove: (id) => told(calls.remove(id)),
      toggleResolution: (id) => told(calls.toggleResolution(id)),
    };
  }, [queryClient, workspaceId, emailId, locale]);
}

/**
 * The editor's Review tab: the threads of the locale on screen (newest activity last), a box for a
 * new comment, the pin tool, and the filter for resolved threads. It follows the email's event
 * stream, so others' comments appear without reloading.
 */
export function ReviewPanel({
  workspaceId,
  emailId,
  review,
}: {
  workspaceId: number;
  emailId: number;
  review: ReviewState;
}) {
  const can = useCan();
  if (!can('email_commenting')) {
    return (
      <Text size="sm" c="dimmed">
        Your role cannot read or write comments (it needs the email commenting permission).
      </Text>
    );
  }
  return <CommentingReviewPanel workspaceId={workspaceId} emailId={emailId} review={review} />;
}

function CommentingReviewPanel({
  workspaceId,
  emailId,
  review,
}: {
  workspaceId: number;
  emailId: number;
  review: ReviewState;
}) {
  const me = useMe();
  const { locale } = useEditorSession();
  const queryClient = useQueryClient();
  const comments = useQuery(commentsQuery(workspaceId, emailId, locale));
  const calls = useCommentCalls(workspaceId, emailId, locale);
  const { pinMode, setPinMode, pendingPin, setPendingPin, selectThread } = review;

  useEmailEvents(workspaceId, emailId, (event) => {
    if (event.type === 'resync' || (event.type === 'comments_changed' && event.locale === locale)) {
      void queryClient.invalidateQueries({ queryKey: commentKeys.ofLocale(workspaceId, emailId, locale) });
    }
  });

  useEffect(() => {
    if (!pinMode) return;
    const leave = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setPinMode(false);
    };
    window.addEventListener('keydown', leave);
    return () => window.removeEventListener('keydown', leave);
  }, [pinMode, setPinMode]);

  const allThreads = useMemo(() => groupThreads(comments.data ?? []), [comments.data]);
  const numbers = useMemo(() => pinNumbers(allThreads), [allThreads]);
  const threads = shownThreads(allThreads, review.showResolved);
  const resolvedCount = allThreads.length - shownThreads(allThreads, false).length;

  return (
    <Stack gap="sm">
      <AiReviewRuns workspaceId={workspaceId} emailId={emailId} />
      <Group justify="space-between" gap="xs">
        <Tooltip label="Then click the preview where your comment belongs (Esc to stop)">
          <Button
            size="xs"
            variant={pinMode ? 'filled' : 'light'}
            leftSection={<IconMapPin size={14} />}
            aria-pressed={pinMode}
            onClick={() => setPinMode(!pinMode)}
          >
            Pin a comment
          </Button>
        </Tooltip>
        <Switch
          size="xs"
          label="Show resolved"
          checked={review.showResolved}
          onChange={(event) => review.setShowResolved(event.currentTarget.checked)}
        />
      </Group>
      {pinMode && (
        <Alert color="blue" py={6}>
          <Text size="xs">Click the preview where your comment belongs. Press Esc to stop.</Text>
        </Alert>
      )}
      <CommentComposer
        key={
          pendingPin
            ? `pin-${pendingPin.coordinates.y}-${pendingPin.coordinates.center_offset_x_px}`
            : 'email'
        }
        workspaceId={workspaceId}
        autoFocus={pendingPin !== null}
        above={
          pendingPin && (
            <Paper withBorder px="xs" py={4} bg="orange.0">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="xs">New comment pinned on {pendingPin.label}</Text>
                <CloseButton size="sm" aria-label="Remove the pin" onClick={() => setPendingPin(null)} />
              </Group>
            </Paper>
          )
        }
        onSubmit={async (body) => {
          const pin_data = pendingPin && {
            component_instance_id: pendingPin.component_instance_id,
            branch_key: pendingPin.branch_key,
            coordinates: pendingPin.coordinates,
          };
          const created = await calls.create({ body, pin_data });
          setPendingPin(null);
          if (created.pin_data) selectThread(created.id);
        }}
      />
      <QueryState
        query={comments}
        isEmpty={() => threads.length === 0}
        empty={
          <Text size="sm" c="dimmed">
            {resolvedCount > 0 && !review.showResolved
              ? `No open threads on this locale. Turn on Show resolved to see the ${resolvedCount} resolved.`
              : 'No comments on this locale yet. Click the preview with the pin tool to comment on a spot.'}
          </Text>
        }
      >
        {() => (
          <CommentThreads
            threads={threads}
            pinNumbers={numbers}
            selectedThreadId={review.selectedThreadId}
            onSelectThread={selectThread}
            myUserId={me.user.id}
            workspaceId={workspaceId}
            calls={calls}
          />
        )}
      </QueryState>
    </Stack>
  );
}

/** The pins of the locale on screen over the preview frame, while the Review tab is open. */
export function ReviewPins({
  frame,
  workspaceId,
  emailId,
  review,
}: {
  frame: HTMLIFrameElement;
  workspaceId: number;
  emailId: number;
  review: ReviewState;
}) {
  const can = useCan();
  const { locale } = useEditorSession();
  const comments = useQuery({
    ...commentsQuery(workspaceId, emailId, locale),
    enabled: can('email_commenting'),
  });
  const allThreads = useMemo(() => groupThreads(comments.data ?? []), [comments.data]);
  const numbers = useMemo(() => pinNumbers(allThreads), [allThreads]);
  return (
    <PinOverlay
      frame={frame}
      threads={shownThreads(allThreads, review.showResolved)}
      pinNumbers={numbers}
      review={review}
    />
  );
}
