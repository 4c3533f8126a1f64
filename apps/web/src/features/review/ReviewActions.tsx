import { ActionIcon, Button, Group, Menu, Popover, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconTimeline } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { memo, type ReactNode, useState } from 'react';
import { useMe } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { useEmailEvents } from '../live/use-email-events.ts';
import { notificationKeys } from '../notifications/notifications-api.ts';
import { RequestReviewDialog } from '../review-assignments/RequestReviewDialog.tsx';
import { ChecksRefusalModal, ForcePublishModal } from './PreSendDialogs.tsx';
import { type ChecksRefusal, checksRefusalOf, type GatedStep } from './pre-send-refusal.ts';
import { DecisionModal, TestSendModal } from './ReviewDialogs.tsx';
import { ReviewTimeline } from './ReviewTimeline.tsx';
import { type ActionState, reviewActionStates } from './review-action-states.ts';
import {
  convertToDraft,
  decide,
  type Email,
  fetchEmail,
  publish,
  type ReviewDecision,
  sendTest,
  submitForApproval,
  workflowKey,
  workflowQuery,
} from './review-api.ts';
import { SubmitForApprovalModal } from './SubmitForApprovalModal.tsx';

/** A button that stays hoverable when disabled, so its tooltip can say why. */
function ActionButton({
  state,
  onClick,
  children,
  color,
  variant = 'filled',
}: {
  state: ActionState;
  onClick: () => void;
  children: ReactNode;
  color?: string;
  variant?: 'filled' | 'default' | 'light';
}) {
  const button = (
    <Button
      size="xs"
      color={color}
      variant={variant}
      data-disabled={state.enabled ? undefined : true}
      aria-disabled={!state.enabled}
      onClick={(event) => {
        if (!state.enabled) event.preventDefault();
        else onClick();
      }}
    >
      {children}
    </Button>
  );
  return state.reason ? (
    <Tooltip label={state.reason} multiline maw={300}>
      {button}
    </Tooltip>
  ) : (
    button
  );
}

/**
 * The review and publishing actions of the editor's top bar: submit or resubmit, approve or request
 * changes, publish (and force publish), convert to draft, send a test, and the review's timeline.
 * Others' decisions show without reloading: on a status or review event the workflow and the
 * email's status are fetched again.
 */
const statusesWithReview: readonly Email['status'][] = ['in_review', 'changes_requested', 'approved'];

// Memoised: the editor re-renders its bar on every keystroke, and these actions only follow the email and its saving.
export const ReviewActions = memo(function ReviewActions({
  workspaceId,
  email,
  saved,
  onEmailChanged,
}: {
  workspaceId: number;
  email: Email;
  /** Whether every edit has reached the server (a submission freezes the saved content). */
  saved: boolean;
  /** The email after a move: the editor reopens it (read-only in review). */
  onEmailChanged: (email: Email) => void;
}) {
  const me = useMe();
  const queryClient = useQueryClient();
  // Only these statuses come from a review, so only they surely have one: asking otherwise could be a 404
  // (a draft never submitted, an email published with force).
  const workflow = useQuery({
    ...workflowQuery(workspaceId, email.id),
    enabled: statusesWithReview.includes(email.status),
  });
  const [submitting, setSubmitting] = useState(false);
  const [deciding, setDeciding] = useState<ReviewDecision | null>(null);
  const [testing, setTesting] = useState(false);
  const [askingForReview, setAskingForReview] = useState(false);
  const [forcePublishing, setForcePublishing] = useState(false);
  /** A step the pre-send checks refused, with the blocking problems to show. */
  const [refusal, setRefusal] = useState<ChecksRefusal | null>(null);
  const states = reviewActionStates(
    email,
    workflow.data ?? null,
    { id: me.user.id, permissions: me.permissions },
    { saved },
  );

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: workflowKey(workspaceId, email.id) });
    const current = await fetchEmail(workspaceId, email.id);
    if (current.status !== email.status || current.lock_version !== email.lock_version) {
      if (saved) onEmailChanged(current);
      else
        notifications.show({
          color: 'orange',
          message: `This email is now ${current.status.replace('_', ' ')}: your unsaved changes may not be kept.`,
        });
    }
  }

  useEmailEvents(workspaceId, email.id, (event) => {
    // Whatever happens on the email may have told me something: the bell counts again.
    void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    if (event.type === 'status_changed' || event.type === 'review_changed' || event.type === 'resync') {
      void refresh().catch(() => undefined);
    }
  });

  /** Tells what a gated step did: done, done with warnings, or refused by the pre-send checks. */
  function told(done: string, warnings: readonly unknown[] | undefined) {
    const count = warnings?.length ?? 0;
    notifications.show(
      count > 0
        ? {
            color: 'yellow',
            message: `${done}, with ${count} pre-send ${count === 1 ? 'warning' : 'warnings'} (see the review timeline)`,
          }
        : { color: 'green', message: done },
    );
  }

  /**
   * Runs a gated step. A refusal by the pre-send checks opens the list of blocking problems
   * (and resolves, so the step's own dialog closes); any other failure is the caller's to show.
   */
  async function gated<T extends { pre_send_warnings?: readonly unknown[] }>(
    step: GatedStep,
    action: () => Promise<T>,
    done: string,
  ): Promise<void> {
    let result: T;
    try {
      result = await action();
    } catch (error) {
      const refused = checksRefusalOf(error, step);
      if (!refused) throw error;
      setRefusal(refused);
      return;
    }
    told(done, result.pre_send_warnings);
    await refresh();
  }

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      notifications.show({ color: 'green', message: done });
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  }

  const status = email.status;
  const continuable =
    status === 'changes_requested' && workflow.data?.status === 'in_progress' ? workflow.data : null;

  return (
    <Group gap="xs" wrap="nowrap">
      {(status === 'draft' || status === 'changes_requested') && (
        <ActionButton
          state={status === 'draft' ? states.submit : states.submit.enabled ? states.submit : states.resubmit}
          onClick={() => setSubmitting(true)}
        >
          {status === 'draft' ? 'Submit for approval' : 'Resubmit'}
        </ActionButton>
      )}
      {status === 'in_review' && (
        <>
          <ActionButton state={states.approve} color="green" onClick={() => setDeciding('approved')}>
            Approve
          </ActionButton>
          <ActionButton
            state={states.request_changes}
            color="orange"
            variant="light"
            onClick={() => setDeciding('request_changes')}
          >
            Request changes
          </ActionButton>
        </>
      )}
      {status === 'approved' && (
        <ActionButton
          state={states.publish}
          color="violet"
          onClick={() =>
            gated('publish', () => publish(workspaceId, email.id, false), 'Published').catch((error) =>
              notifications.show({ color: 'red', message: errorMessage(error) }),
            )
          }
        >
          Publish
        </ActionButton>
      )}
      {workflow.data && (
        <Popover width={340} position="bottom-end" shadow="md" withArrow>
          <Popover.Target>
            <Tooltip label="Review timeline">
              <ActionIcon variant="default" aria-label="Review timeline">
                <IconTimeline size={16} />
              </ActionIcon>
            </Tooltip>
          </Popover.Target>
          <Popover.Dropdown>
            <ReviewTimeline workflow={workflow.data} />
          </Popover.Dropdown>
        </Popover>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" aria-label="More review actions">
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown maw={320}>
          <MenuAction
            state={states.force_publish}
            label="Force publish…"
            color="red"
            onClick={() => setForcePublishing(true)}
          />
          <MenuAction
            state={states.convert_to_draft}
            label="Convert to draft"
            onClick={() => run(() => convertToDraft(workspaceId, email.id), 'Converted to draft')}
          />
          <MenuAction state={states.send_test} label="Send test…" onClick={() => setTesting(true)} />
          <Menu.Item onClick={() => setAskingForReview(true)}>Ask for a review…</Menu.Item>
        </Menu.Dropdown>
      </Menu>

      <SubmitForApprovalModal
        workspaceId={workspaceId}
        opened={submitting}
        onClose={() => setSubmitting(false)}
        continuable={continuable}
        onSubmit={(body) =>
          gated('submit', () => submitForApproval(workspaceId, email.id, body), 'Submitted for approval')
        }
      />
      <DecisionModal
        decision={deciding}
        onClose={() => setDeciding(null)}
        onDecide={(decision, comment) =>
          gated(
            'approve',
            () => decide(workspaceId, email.id, decision, comment),
            decision === 'approved' ? 'Approved' : 'Changes requested',
          )
        }
      />
      <ForcePublishModal
        workspaceId={workspaceId}
        emailId={email.id}
        opened={forcePublishing}
        onClose={() => setForcePublishing(false)}
        onPublish={async (acknowledged) => {
          const published = await publish(workspaceId, email.id, true, acknowledged);
          told(
            published.overridden_problems.length > 0
              ? `Published, overriding ${published.overridden_problems.length} blocking ${published.overridden_problems.length === 1 ? 'problem' : 'problems'}`
              : 'Published',
            published.pre_send_warnings,
          );
          await refresh();
        }}
      />
      <ChecksRefusalModal refusal={refusal} onClose={() => setRefusal(null)} />
      <RequestReviewDialog
        workspaceId={workspaceId}
        emailId={email.id}
        opened={askingForReview}
        onClose={() => setAskingForReview(false)}
      />
      <TestSendModal
        opened={testing}
        locales={email.locales}
        defaultLocale={email.default_locale}
        onClose={() => setTesting(false)}
        onSend={async (recipients, locale) => {
          await sendTest(workspaceId, email.id, recipients, locale);
          notifications.show({ color: 'green', message: `Test sent to ${recipients.join(', ')}` });
        }}
      />
    </Group>
  );
});

/** A menu entry that, when it cannot be used, says why under its label. */
function MenuAction({
  state,
  label,
  color,
  onClick,
}: {
  state: ActionState;
  label: string;
  color?: string;
  onClick: () => void;
}) {
  return (
    <Menu.Item color={state.enabled ? color : undefined} disabled={!state.enabled} onClick={onClick}>
      <Text size="sm">{label}</Text>
      {state.reason && (
        <Text size="xs" c="dimmed">
          {state.reason}
        </Text>
      )}
    </Menu.Item>
  );
}
