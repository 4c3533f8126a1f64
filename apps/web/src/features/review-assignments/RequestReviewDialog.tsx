import {
  ActionIcon,
  Alert,
  Avatar,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh, IconRobot, IconUser, IconUsersGroup, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { allAiReviewersQuery } from '../ai-reviewers/ai-reviewers-api.ts';
import { allRolesQuery, fullName } from '../settings/settings-api.ts';
import { usePeopleSearch } from '../settings/UserPicker.tsx';
import {
  type AssigneeType,
  assigneeTypeLabels,
  type ReviewAssignment,
  reviewAssignmentsQuery,
  useAskForReview,
  useRunAiReviewAgain,
  useWithdrawReviewRequest,
} from './review-assignments-api.ts';

const noPermission = 'Asking for reviews takes the submit for approval permission';

/**
 * Asks a person, everyone of a role, or an AI reviewer to look at an email outside a formal
 * approval, and shows who is asked already, each with a way to withdraw the request.
 */
export function RequestReviewDialog({
  workspaceId,
  emailId,
  opened,
  onClose,
}: {
  workspaceId: number;
  emailId: number;
  opened: boolean;
  onClose: () => void;
}) {
  const can = useCan();
  const allowed = can('submit_for_approval');
  const assignments = useQuery({
    ...reviewAssignmentsQuery(workspaceId, emailId),
    enabled: opened,
    // An AI review takes from seconds to a minute or two: look again until it has finished.
    refetchInterval: (query) =>
      query.state.data?.some((assignment) => assignment.ai_review_status === 'running') ? 2_000 : false,
  });
  const [type, setType] = useState<AssigneeType>('User');
  const [assigneeId, setAssigneeId] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);

  const ask = useAskForReview(workspaceId, emailId, {
    onSuccess: (created) => {
      setAssigneeId(null);
      setFieldError(null);
      if (created.ai_review_status === 'failed')
        notifications.show({
          color: 'orange',
          title: `${created.assignee.name} could not start its review`,
          message: created.ai_review_error ?? 'The AI review failed.',
        });
      else
        notifications.show({
          color: 'teal',
          message:
            created.ai_review_status === 'running'
              ? `${created.assignee.name} is reviewing the email; its comments will appear with the email’s comments.`
              : `${created.assignee.name} was asked to review.`,
        });
    },
    onError: (error) => {
      const messages =
        error instanceof ApiError && error.status === 422
          ? Object.values(error.fieldErrors).flat().join('; ')
          : '';
      setFieldError(messages || errorMessage(error));
    },
  });
  const withdraw = useWithdrawReviewRequest(workspaceId, emailId, {
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: 'The request was not withdrawn',
        message: errorMessage(error),
      }),
  });

  const runAgain = useRunAiReviewAgain(workspaceId, emailId, {
    onError: (error) =>
      notifications.show({ color: 'red', title: 'The review did not start', message: errorMessage(error) }),
  });

  const chooseType = (value: string) => {
    setType(value as AssigneeType);
    setAssigneeId(null);
    setFieldError(null);
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Ask for a review" size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          Ask someone to look at this email without submitting it for approval. People asked (or everyone with
          the role asked) are notified. An AI reviewer reviews every language of the email at once and leaves
          its comments, pinned to the sections they concern, with the email’s other comments.
        </Text>
        <SegmentedControl
          aria-label="Whom to ask"
          value={type}
          onChange={chooseType}
          disabled={!allowed}
          data={(['User', 'Role', 'AiReviewer'] as const).map((value) => ({
            value,
            label: assigneeTypeLabels[value],
          }))}
        />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (assigneeId) ask.mutate({ assignee_type: type, assignee_id: Number(assigneeId) });
          }}
        >
          <Group align="flex-start" gap="xs" wrap="nowrap">
            <AssigneeSelect
              key={type}
              type={type}
              workspaceId={workspaceId}
              value={assigneeId}
              disabled={!allowed}
              error={fieldError}
              onChange={(value) => {
                setAssigneeId(value);
                setFieldError(null);
              }}
            />
            <Tooltip
              label={allowed ? 'Choose whom to ask first' : noPermission}
              disabled={allowed && assigneeId !== null}
            >
              <Button
                type="submit"
                mt={25}
                disabled={!allowed || assigneeId === null}
                loading={ask.isPending}
              >
                Ask
              </Button>
            </Tooltip>
          </Group>
        </form>
        <Text fw={500}>Asked to review</Text>
        <QueryState
          query={assignments}
          skeletonRows={2}
          isEmpty={(data) => data.length === 0}
          empty={<Text size="sm">Nobody is asked yet.</Text>}
        >
          {(data) => (
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {data.map((assignment) => (
                // Who and how it stands take the room there is (a failure's reason wraps); the
                // actions keep their full width, so their labels are never cut off.
                <Group key={assignment.id} component="li" align="flex-start" gap="sm" wrap="nowrap">
                  <AssigneeAvatar assignment={assignment} />
                  <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                    <Group gap="xs" wrap="wrap">
                      <Text size="sm" fw={500}>
                        {assignment.assignee.name}
                      </Text>
                      {assignment.assignee_type !== 'User' && (
                        <Badge size="xs" variant="light">
                          {assignment.assignee_type === 'Role' ? 'Role' : 'AI reviewer'}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {assignment.assigned_by ? `Asked by ${fullName(assignment.assigned_by)}` : 'Asked'}
                    </Text>
                    {assignment.assignee_type === 'AiReviewer' && <AiReviewStatus assignment={assignment} />}
                  </Stack>
                  {assignment.assignee_type === 'AiReviewer' && assignment.ai_review_status !== 'running' && (
                    <Tooltip label={allowed ? 'Review the email again; earlier comments stay' : noPermission}>
                      <Button
                        size="compact-xs"
                        variant="light"
                        style={{ flexShrink: 0 }}
                        leftSection={<IconRefresh size={12} />}
                        aria-label={`Run ${assignment.assignee.name}’s review again`}
                        disabled={!allowed}
                        loading={runAgain.isPending && runAgain.variables?.id === assignment.id}
                        onClick={() => runAgain.mutate(assignment)}
                      >
                        Run again
                      </Button>
                    </Tooltip>
                  )}
                  <Tooltip label={allowed ? 'Withdraw this request' : noPermission}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={`Withdraw the request to ${assignment.assignee.name}`}
                      disabled={!allowed}
                      loading={withdraw.isPending && withdraw.variables?.id === assignment.id}
                      onClick={() => withdraw.mutate(assignment)}
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ))}
            </Stack>
          )}
        </QueryState>
        {!allowed && (
          <Alert color="gray" variant="light">
            {noPermission}.
          </Alert>
        )}
      </Stack>
    </Modal>
  );
}

/** Where an AI reviewer's review stands: running, done, or failed with the reason. */
function AiReviewStatus({ assignment }: { assignment: ReviewAssignment }) {
  const status = assignment.ai_review_status;
  if (status === 'running')
    return (
      <Group gap={6} wrap="nowrap" role="status" aria-label={`${assignment.assignee.name} is reviewing`}>
        <Loader size="xs" />
        <Text size="xs" c="dimmed">
          Reviewing…
        </Text>
      </Group>
    );
  if (status === 'done')
    return (
      <Badge
        size="sm"
        color="teal"
        variant="light"
        title="Its comments are with the email’s comments, in each language"
      >
        Review done
      </Badge>
    );
  if (status === 'failed')
    return (
      <Stack gap={2} align="flex-start">
        <Badge size="sm" color="red" variant="light">
          Review failed
        </Badge>
        {assignment.ai_review_error && (
          <Text size="xs" c="red.8" style={{ overflowWrap: 'anywhere' }}>
            {assignment.ai_review_error}
          </Text>
        )}
      </Stack>
    );
  return null;
}

function AssigneeAvatar({ assignment }: { assignment: ReviewAssignment }) {
  if (assignment.assignee_type === 'User')
    return (
      <Avatar src={assignment.assignee.profile_image_url ?? null} radius="xl" size="sm">
        <IconUser size={14} />
      </Avatar>
    );
  return (
    <Avatar radius="xl" size="sm" color="blue">
      {assignment.assignee_type === 'Role' ? <IconUsersGroup size={14} /> : <IconRobot size={14} />}
    </Avatar>
  );
}

/** The picker for the chosen kind of assignee: people found by search, the roles, the AI reviewers. */
function AssigneeSelect({
  type,
  workspaceId,
  value,
  onChange,
  disabled,
  error,
}: {
  type: AssigneeType;
  workspaceId: number;
  value: string | null;
  onChange: (value: string | null) => void;
  disabled: boolean;
  error: string | null;
}) {
  const { search, setSearch, people, searching } = usePeopleSearch();
  const roles = useQuery({ ...allRolesQuery, enabled: type === 'Role' });
  const reviewers = useQuery({ ...allAiReviewersQuery(workspaceId), enabled: type === 'AiReviewer' });
  const common = { flex: 1, value, onChange, disabled, error, searchable: true, clearable: true } as const;
  if (type === 'User')
    return (
      <Select
        {...common}
        label="Person"
        placeholder="Search by name or email"
        data={people.map((user) => ({ value: String(user.id), label: `${fullName(user)} (${user.email})` }))}
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        nothingFoundMessage={searching ? 'Searching…' : 'Nobody found'}
      />
    );
  if (type === 'Role')
    return (
      <Select
        {...common}
        label="Role"
        placeholder={roles.isPending ? 'Loading roles…' : 'Choose a role'}
        description="Everyone with this role who can see the email is notified"
        data={(roles.data ?? []).map((role) => ({ value: String(role.id), label: role.name }))}
        nothingFoundMessage="No role found"
      />
    );
  return (
    <Select
      {...common}
      label="AI reviewer"
      placeholder={reviewers.isPending ? 'Loading AI reviewers…' : 'Choose an AI reviewer'}
      data={(reviewers.data ?? []).map((reviewer) => ({ value: String(reviewer.id), label: reviewer.name }))}
      nothingFoundMessage="This workspace has no AI reviewers yet"
    />
  );
}
