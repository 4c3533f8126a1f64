import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../shared/api-error.ts';
import { useOptionalEditorSession } from '../editor/EditorContext.tsx';
import { checksQuery, type PreSendProblem } from '../exports/exports-api.ts';
import { acknowledgedCodes, type ChecksRefusal, checksRefusalOf } from './pre-send-refusal.ts';

/**
 * Pre-send problems, one a line: locale, audience (the branch under a conditional) and message,
 * with a Show button that opens the component in the editor when the problem names one.
 */
export function CheckProblemList({
  problems,
  onShown,
}: {
  problems: readonly PreSendProblem[];
  /** Called after Show moved the editor to the problem (a dialog closes itself). */
  onShown?: () => void;
}) {
  const session = useOptionalEditorSession();
  const audienceOf = (problem: PreSendProblem) => {
    if (!problem.branch || problem.branch === 'null_branch') return null;
    for (const conditional of session?.conditionals ?? []) {
      const branch = conditional.branches.find((candidate) => candidate.key === problem.branch);
      if (branch) return `${conditional.label}: ${branch.label}`;
    }
    return problem.branch;
  };
  return (
    <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {problems.map((problem) => {
        const audience = audienceOf(problem);
        const instanceId = problem.component_instance_id;
        return (
          <Group
            key={`${problem.code}-${problem.locale}-${problem.branch}-${instanceId}-${problem.message}`}
            component="li"
            justify="space-between"
            wrap="nowrap"
            align="flex-start"
            gap="xs"
          >
            <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              {problem.locale && <b>{problem.locale}</b>}
              {problem.locale && ' · '}
              {audience && `${audience} · `}
              {problem.message}
            </Text>
            {session && instanceId && (
              <Button
                size="compact-xs"
                variant="subtle"
                aria-label={`Show the component of “${problem.message}”`}
                onClick={() => {
                  if (problem.locale) session.setLocale(problem.locale);
                  session.select(instanceId);
                  onShown?.();
                }}
              >
                Show
              </Button>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}

const refusalTitles: Record<ChecksRefusal['step'], string> = {
  submit: 'Not submitted: the pre-send checks found blocking problems',
  approve: 'Not approved: the pre-send checks found blocking problems',
  publish: 'Not published: the pre-send checks found blocking problems',
  force_publish: 'Not published: the blocking problems changed',
};

/** Why a submit, approval or publish was refused: the blocking problems to fix first. */
export function ChecksRefusalModal({
  refusal,
  onClose,
}: {
  refusal: ChecksRefusal | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={refusal !== null}
      onClose={onClose}
      title={refusal ? refusalTitles[refusal.step] : ''}
      size="lg"
    >
      {refusal && (
        <Stack>
          <Text size="sm">{refusal.message}</Text>
          <Alert
            color="red"
            role="alert"
            title={`${refusal.problems.length} blocking ${refusal.problems.length === 1 ? 'problem' : 'problems'}`}
          >
            <CheckProblemList problems={refusal.problems} onShown={onClose} />
          </Alert>
          {refusal.step === 'approve' && (
            <Text size="sm" c="dimmed">
              You can still request changes, so that the email goes back to its authors.
            </Text>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * Publishing without approval, for those who may: the pre-send checks run when the dialog opens,
 * and their blocking problems are listed; confirming overrides exactly those (the API refuses,
 * and the list is refreshed, when they changed in between). The override is written to the audit log.
 */
export function ForcePublishModal({
  workspaceId,
  emailId,
  opened,
  onClose,
  onPublish,
}: {
  workspaceId: number;
  emailId: number;
  opened: boolean;
  onClose: () => void;
  onPublish: (acknowledgedProblems: string[]) => Promise<void>;
}) {
  const checks = useQuery({ ...checksQuery(workspaceId, emailId, null), enabled: opened });
  const [changed, setChanged] = useState<ChecksRefusal | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!opened) {
      setChanged(null);
      setProblem(null);
    }
  }, [opened]);

  const blocking =
    changed?.problems ?? (checks.data?.problems ?? []).filter((found) => found.severity === 'blocking');
  const warningCount = checks.data?.warning_count ?? 0;

  async function confirm() {
    setBusy(true);
    setProblem(null);
    try {
      await onPublish(acknowledgedCodes(blocking));
      onClose();
    } catch (error) {
      const refusal = checksRefusalOf(error, 'force_publish');
      if (refusal) setChanged(refusal);
      else setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Publish without approval?" size="lg">
      <Stack>
        <Text size="sm">
          The email is published as it is now, whatever its review says; a review under way is cancelled. The
          audit log records who published it and what was overridden.
        </Text>
        {checks.isPending ? (
          <Group gap="xs" aria-busy="true">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              Running the pre-send checks…
            </Text>
          </Group>
        ) : checks.isError ? (
          <Alert color="red" role="alert" title="The pre-send checks could not run">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{errorMessage(checks.error)}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => checks.refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        ) : blocking.length === 0 ? (
          <Alert color="green" title="No blocking problems">
            <Text size="sm">
              The pre-send checks find nothing that blocks sending
              {warningCount > 0 ? ` (${warningCount} ${warningCount === 1 ? 'warning' : 'warnings'})` : ''}.
            </Text>
          </Alert>
        ) : (
          <Alert
            color="red"
            role="alert"
            title={`You are overriding ${blocking.length} blocking ${blocking.length === 1 ? 'problem' : 'problems'}`}
          >
            <Stack gap="xs">
              {changed && (
                <Text size="sm" fw={500}>
                  {changed.message}
                </Text>
              )}
              <CheckProblemList problems={blocking} onShown={onClose} />
            </Stack>
          </Alert>
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
          <Button color="red" onClick={confirm} loading={busy} disabled={checks.isPending || checks.isError}>
            {blocking.length > 0 ? 'Override and publish' : 'Force publish'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
