import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Modal,
  MultiSelect,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../shared/api-error.ts';
import {
  type ApprovalWorkflow,
  reviewGroupsQuery,
  type SubmitForApprovalBody,
  workspaceMembersQuery,
} from './review-api.ts';
import { type DraftStage, type SubmitForm, submitPayload } from './submit-payload.ts';

let stageKeys = 0;
const newStage = (): DraftStage => ({ key: `stage-${++stageKeys}`, approval_type: 'one_of', user_ids: [] });

/**
 * Submit for approval: to a reusable review group, or to reviewers picked per stage for this email
 * alone. After changes were requested, continuing the review under way is offered first.
 */
export function SubmitForApprovalModal({
  workspaceId,
  opened,
  onClose,
  onSubmit,
  continuable,
}: {
  workspaceId: number;
  opened: boolean;
  onClose: () => void;
  onSubmit: (body: SubmitForApprovalBody) => Promise<void>;
  /** The review under way that asked for changes, which a resubmission continues. */
  continuable: ApprovalWorkflow | null;
}) {
  const [resume, setResume] = useState<'continue' | 'restart'>('continue');
  const [mode, setMode] = useState<'group' | 'stages'>('stages');
  const groups = useQuery({ ...reviewGroupsQuery(), enabled: opened && mode === 'group' });
  const members = useQuery({ ...workspaceMembersQuery(workspaceId), enabled: opened });
  const [groupId, setGroupId] = useState<number | null>(null);
  const [stages, setStages] = useState<DraftStage[]>(() => [newStage()]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const form: SubmitForm =
    continuable && resume === 'continue'
      ? { mode: 'continue' }
      : mode === 'group'
        ? { mode: 'group', groupId }
        : { mode: 'stages', stages };
  const memberOptions = (members.data ?? []).map((user) => ({
    value: String(user.id),
    label: `${user.first_name} ${user.last_name}`.trim(),
  }));
  const changeStage = (key: string, change: Partial<DraftStage>) =>
    setStages((current) => current.map((stage) => (stage.key === key ? { ...stage, ...change } : stage)));

  async function send() {
    const payload = submitPayload(form);
    if ('error' in payload) {
      setProblem(payload.error);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await onSubmit(payload.body);
      onClose();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Submit for approval" size="lg">
      <Stack>
        {continuable && (
          <Radio.Group
            label="Changes were requested"
            value={resume}
            onChange={(value) => setResume(value as 'continue' | 'restart')}
          >
            <Stack gap="xs" mt="xs">
              <Radio
                value="continue"
                label={`Continue from stage ${continuable.current_stage_position}, which asked for changes`}
                description="Approvals of the stages before it keep counting"
              />
              <Radio
                value="restart"
                label="Start again at stage 1"
                description="With a review group or reviewers you choose"
              />
            </Stack>
          </Radio.Group>
        )}
        {form.mode !== 'continue' && (
          <>
            <SegmentedControl
              value={mode}
              onChange={(value) => setMode(value as 'group' | 'stages')}
              data={[
                { value: 'stages', label: 'Choose reviewers' },
                { value: 'group', label: 'Review group' },
              ]}
            />
            {mode === 'group' ? (
              <Select
                label="Review group"
                placeholder={groups.isLoading ? 'Loading…' : 'Choose a group'}
                data={(groups.data ?? []).map((group) => ({
                  value: String(group.id),
                  label: `${group.name} (${group.stages.length} stage${group.stages.length === 1 ? '' : 's'})`,
                }))}
                value={groupId === null ? null : String(groupId)}
                onChange={(value) => setGroupId(value ? Number(value) : null)}
                nothingFoundMessage="No reusable review groups yet: choose reviewers instead"
                error={groups.isError ? errorMessage(groups.error) : undefined}
              />
            ) : (
              <Stack gap="xs">
                {stages.map((stage, index) => (
                  <Card key={stage.key} withBorder padding="sm">
                    <Group justify="space-between" mb="xs">
                      <Text fw={600} size="sm">
                        Stage {index + 1}
                      </Text>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove stage ${index + 1}`}
                        disabled={stages.length === 1}
                        onClick={() =>
                          setStages((current) => current.filter((other) => other.key !== stage.key))
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                    <MultiSelect
                      label={`Stage ${index + 1} reviewers`}
                      searchable
                      data={memberOptions}
                      value={stage.user_ids.map(String)}
                      onChange={(values) => changeStage(stage.key, { user_ids: values.map(Number) })}
                      placeholder={members.isLoading ? 'Loading…' : 'Choose people'}
                      error={members.isError ? errorMessage(members.error) : undefined}
                    />
                    <SegmentedControl
                      mt="xs"
                      size="xs"
                      aria-label={`Stage ${index + 1} approval`}
                      value={stage.approval_type}
                      onChange={(value) =>
                        changeStage(stage.key, { approval_type: value as DraftStage['approval_type'] })
                      }
                      data={[
                        { value: 'one_of', label: 'Any one approves' },
                        { value: 'all_of', label: 'All must approve' },
                      ]}
                    />
                  </Card>
                ))}
                <Button
                  variant="default"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => setStages((current) => [...current, newStage()])}
                >
                  Add stage
                </Button>
              </Stack>
            )}
          </>
        )}
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={send} loading={busy}>
            {form.mode === 'continue' ? 'Resubmit' : 'Submit'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
