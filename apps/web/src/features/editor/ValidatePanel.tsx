import type { ContentValidationResult } from '@letterset/core';
import { Alert, Button, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../shared/api-error.ts';
import { ProblemList } from '../exports/ExportDialog.tsx';
import type { PreSendCheckResult } from '../exports/exports-api.ts';

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
 * Checks the email or layout against its components' rules and lists the problems; choosing one
 * opens the field in the inspector (in its locale and branch). For an email, the pre-send checks
 * run alongside: what an export would refuse (broken links, render errors) or warn about.
 */
export function ValidatePanel({
  validate,
  preSendChecks,
  description,
  describeOwner,
  describeAudience,
  onOpenProblem,
}: {
  validate: () => Promise<ContentValidationResult>;
  /** The pre-send checks of the saved email, in every locale (emails only). */
  preSendChecks?: () => Promise<PreSendCheckResult>;
  /** What is checked, and when (the saved email on the server, or the layout as shown). */
  description: string;
  describeOwner: (owner: string) => string;
  /** The audience (branch name) of a problem found under a conditional; null: show the branch key. */
  describeAudience?: (where: {
    branch: string | null;
    component_instance_id: string | null;
  }) => string | null;
  onOpenProblem: (problem: ContentProblem) => void;
}) {
  const check = useMutation({ mutationFn: validate });
  const preSend = useMutation({
    mutationFn: () => preSendChecks?.() ?? Promise.resolve(null),
  });
  const problems = check.data
    ? contentProblems(check.data.validation_errors as Record<string, Record<string, string[]>>)
    : [];
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {description}
      </Text>
      <Button
        onClick={() => {
          check.mutate();
          if (preSendChecks) preSend.mutate();
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
            <ProblemList problems={preSend.data.problems} audienceOf={describeAudience} />
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
            {problem.branch && problem.branch !== 'null_branch'
              ? ` · ${
                  describeAudience?.({
                    branch: problem.branch,
                    component_instance_id:
                      problem.owner === 'subject' || problem.owner === 'preheader' ? null : problem.owner,
                  }) ?? problem.branch
                }`
              : ''}
          </Text>
          <Text size="sm" c="red">
            {problem.messages.join('; ')}
          </Text>
        </UnstyledButton>
      ))}
    </Stack>
  );
}
