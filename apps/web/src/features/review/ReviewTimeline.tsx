import { Badge, Blockquote, Spoiler, Stack, Text, Timeline } from '@mantine/core';
import { IconCheck, IconClock, IconMessageExclamation } from '@tabler/icons-react';
import { CheckProblemList } from './PreSendDialogs.tsx';
import type { ApprovalWorkflow } from './review-api.ts';

const when = (at: string) => new Date(at).toLocaleString();

/**
 * The review of an email, stage by stage: who approved and when (with the pre-send warnings they
 * approved over), who asked for changes (with their comment), whom each stage still waits on. Every round is shown, latest decisions last.
 */
export function ReviewTimeline({ workflow }: { workflow: ApprovalWorkflow }) {
  const nameOf = (userId: number | null) => {
    const member = workflow.review_group.stages
      .flatMap((stage) => stage.members)
      .find((candidate) => candidate.user_id === userId);
    const user =
      member?.user ?? workflow.review_approvals.find((approval) => approval.user_id === userId)?.user ?? null;
    return user ? `${user.first_name} ${user.last_name}`.trim() : 'A removed user';
  };
  const reached = workflow.stages_progress.filter((stage) => stage.status !== 'waiting').length;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {workflow.review_group.name}
        {workflow.round > 1 ? ` · round ${workflow.round}` : ''}
        {workflow.status === 'cancelled' ? ' · cancelled' : ''}
        {workflow.creator
          ? ` · submitted by ${workflow.creator.first_name} ${workflow.creator.last_name}`
          : ''}
      </Text>
      <Timeline active={reached - 1} bulletSize={22} lineWidth={2} aria-label="Review timeline">
        {workflow.stages_progress.map((stage) => {
          const decisions = workflow.review_approvals.filter(
            (approval) => approval.stage_position === stage.position,
          );
          const changesAsked = decisions.some((decision) => decision.decision === 'request_changes');
          return (
            <Timeline.Item
              key={stage.position}
              bullet={
                stage.status === 'completed' ? (
                  <IconCheck size={13} />
                ) : changesAsked ? (
                  <IconMessageExclamation size={13} />
                ) : (
                  <IconClock size={13} />
                )
              }
              title={
                <>
                  Stage {stage.position}{' '}
                  <Badge size="xs" variant="light" color={stage.status === 'completed' ? 'green' : 'gray'}>
                    {stage.approval_type === 'one_of' ? 'any one approves' : 'all must approve'}
                  </Badge>
                </>
              }
            >
              <Stack gap={4}>
                {decisions.map((decision) => (
                  <div key={decision.id}>
                    <Text size="sm">
                      {nameOf(decision.user_id)}{' '}
                      {decision.decision === 'approved' ? 'approved' : 'requested changes'}
                      {workflow.round > 1 ? ` (round ${decision.round})` : ''}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {when(decision.created_at)}
                    </Text>
                    {decision.review_comment && (
                      <Blockquote p={6} mt={4} fz="sm">
                        {decision.review_comment}
                      </Blockquote>
                    )}
                    {decision.pre_send_warnings.length > 0 && (
                      <Spoiler
                        mt={4}
                        maxHeight={0}
                        showLabel={`Approved with ${decision.pre_send_warnings.length} pre-send ${decision.pre_send_warnings.length === 1 ? 'warning' : 'warnings'}`}
                        hideLabel="Hide the warnings"
                        styles={{ control: { fontSize: 'var(--mantine-font-size-xs)' } }}
                      >
                        <CheckProblemList problems={decision.pre_send_warnings} />
                      </Spoiler>
                    )}
                  </div>
                ))}
                {stage.waiting_on_user_ids.length > 0 && workflow.status === 'in_progress' && (
                  <Text size="sm" c="dimmed">
                    Waiting on {stage.waiting_on_user_ids.map(nameOf).join(', ')}
                  </Text>
                )}
                {stage.status === 'completed' && decisions.length === 0 && (
                  <Text size="sm" c="dimmed">
                    Completed
                  </Text>
                )}
              </Stack>
            </Timeline.Item>
          );
        })}
      </Timeline>
      {workflow.completed_at && (
        <Text size="sm" c="green">
          Approved {when(workflow.completed_at)}
        </Text>
      )}
    </Stack>
  );
}
