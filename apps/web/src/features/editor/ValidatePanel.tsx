import { Alert, Button, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { errorMessage, unwrap } from '../../shared/api-error.ts';
import { ProblemList } from '../exports/ExportDialog.tsx';

/** One problem validate_email_content reported, with where it is. */
export interface ContentProblem {
  /** An instance id, or `subject` / `preheader`. */
  owner: string;
  branch: string;
  locale: string;
  variable: string | null;
  messages: string[];
}

/** The API's `validation_errors` (owner → `branch.locale[.variable]` → messages) as a list. */
export function contentProblems(errors: Record<string, Record<string, string[]>>): ContentProblem[] {
  return Object.entries(errors).flatMap(([owner, byKey]) =>
    Object.entries(byKey).map(([key, messages]) => {
      const [branch = '', locale = '', ...rest] = key.split('.');
      return { owner, branch, locale, variable: rest.length > 0 ? rest.join('.') : null, messages };
    }),
  );
}

/**
 * Checks the saved email with validate_email_content and lists the problems; choosing one opens
 * the field in the inspector (in its locale and branch). The pre-send checks run alongside: what
 * an export would refuse (broken links, render errors) or warn about, in every locale.
 */
export function ValidatePanel({
  workspaceId,
  emailId,
  describeOwner,
  onOpenProblem,
  hasUnsavedChanges,
}: {
  workspaceId: number;
  emailId: number;
  describeOwner: (owner: string) => string;
  onOpenProblem: (problem: ContentProblem) => void;
  hasUnsavedChanges: boolean;
}) {
  const check = useMutation({
    mutationFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}/validate_email_content', {
          params: { path: { workspace_id: workspaceId, id: emailId } },
        }),
      ),
  });
  const preSend = useMutation({
    mutationFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}/checks', {
          params: { path: { workspace_id: workspaceId, id: emailId } },
        }),
      ),
  });
  const problems = check.data
    ? contentProblems(check.data.validation_errors as Record<string, Record<string, string[]>>)
    : [];
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Checks every locale and branch of the saved email against its components’ rules.
        {hasUnsavedChanges ? ' Your latest changes are still being saved.' : ''}
      </Text>
      <Button
        onClick={() => {
          check.mutate();
          preSend.mutate();
        }}
        loading={check.isPending || preSend.isPending}
      >
        Validate
      </Button>
      {check.isError && (
        <Alert color="red" role="alert">
          {errorMessage(check.error)}
        </Alert>
      )}
      {check.data?.valid && (
        <Alert color="green" role="status">
          No problems found.
        </Alert>
      )}
      {preSend.isError && (
        <Alert color="red" role="alert">
          {errorMessage(preSend.error)}
        </Alert>
      )}
      {preSend.data && (
        <Stack gap="xs" aria-label="Pre-send checks">
          <Text size="sm" fw={500}>
            Pre-send checks
          </Text>
          {preSend.data.problems.length === 0 ? (
            <Text size="sm" c="dimmed">
              Nothing would stop or trouble an export.
            </Text>
          ) : (
            <ProblemList problems={preSend.data.problems} />
          )}
        </Stack>
      )}
      {problems.map((problem) => (
        <UnstyledButton
          key={`${problem.owner}.${problem.branch}.${problem.locale}.${problem.variable}`}
          onClick={() => onOpenProblem(problem)}
          p="xs"
          style={{ border: '1px solid var(--mantine-color-red-3)', borderRadius: 4 }}
        >
          <Text size="sm" fw={500}>
            {describeOwner(problem.owner)}
            {problem.variable ? ` · ${problem.variable}` : ''} · {problem.locale}
            {problem.branch && problem.branch !== 'null_branch' ? ` · ${problem.branch}` : ''}
          </Text>
          <Text size="sm" c="red">
            {problem.messages.join('; ')}
          </Text>
        </UnstyledButton>
      ))}
    </Stack>
  );
}
