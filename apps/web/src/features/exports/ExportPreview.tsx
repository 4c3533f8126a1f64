import { audienceSelection, type BranchSelection } from '@letterset/core';
import { Alert, Box, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AudienceSwitch } from '../../shared/AudienceSwitch.tsx';
import { errorMessage } from '../../shared/api-error.ts';
import { defaultBranchesSentence, type EmailAudiences } from './export-preview.ts';
import { renderedEmailQuery } from './exports-api.ts';

/**
 * The saved email as the server renders it for one locale and one audience (a branch of each
 * conditional it uses), with the Audience switch over it, and what readers get without a profile.
 */
export function ExportPreview({
  workspaceId,
  emailId,
  locales,
  profileChosen,
  emailAudiences,
}: {
  workspaceId: number;
  emailId: number;
  /** The locales being exported; the preview shows one of them. */
  locales: readonly string[];
  /** Whether a dynamic content profile is chosen (every branch then goes out in its syntax). */
  profileChosen: boolean;
  emailAudiences: EmailAudiences;
}) {
  const { audiences } = emailAudiences;
  const [chosenLocale, setChosenLocale] = useState<string | null>(null);
  const [chosenBranches, setChosenBranches] = useState<BranchSelection>({});
  const [shownConditionalId, setShownConditionalId] = useState<number | null>(null);
  const locale =
    chosenLocale !== null && locales.includes(chosenLocale) ? chosenLocale : (locales[0] ?? null);
  const selection = audienceSelection(audiences, chosenBranches);
  const rendered = useQuery({
    ...renderedEmailQuery(workspaceId, emailId, locale ?? '', selection),
    enabled: locale !== null && !emailAudiences.isPending && emailAudiences.error === null,
  });

  return (
    <Stack gap="xs" role="group" aria-label="Preview">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          Preview
        </Text>
        <Group gap="xs" wrap="wrap">
          {locales.length > 1 && (
            <Select
              aria-label="Preview locale"
              size="xs"
              w={110}
              allowDeselect={false}
              data={[...locales]}
              value={locale}
              onChange={setChosenLocale}
            />
          )}
          <AudienceSwitch
            audiences={audiences}
            selection={selection}
            shownConditionalId={shownConditionalId}
            onChange={(conditionalId, branchKey) => {
              setChosenBranches((current) => ({ ...current, [String(conditionalId)]: branchKey }));
              setShownConditionalId(conditionalId);
            }}
          />
        </Group>
      </Group>
      {!emailAudiences.isPending && emailAudiences.error === null && (
        <Text size="xs" c="dimmed">
          {audiences.length === 0
            ? 'This email has no conditional content: every reader sees the same email.'
            : profileChosen
              ? 'With a profile every branch goes out in its syntax and the sending platform picks one per reader; the preview shows one audience.'
              : `Without a profile each conditional shows its default branch: ${defaultBranchesSentence(audiences)}.`}
        </Text>
      )}
      {emailAudiences.error ? (
        <Alert color="red" role="alert" title="Could not load the email">
          {errorMessage(emailAudiences.error)}
        </Alert>
      ) : locale === null ? (
        <Text size="sm" c="dimmed">
          Choose a locale to preview.
        </Text>
      ) : emailAudiences.isPending || rendered.isPending ? (
        <Group gap="xs" aria-busy="true">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Rendering the preview…
          </Text>
        </Group>
      ) : rendered.isError ? (
        <Alert color="red" role="alert" title="The email could not be rendered">
          {errorMessage(rendered.error)}
        </Alert>
      ) : (
        <Stack gap={4}>
          <Text size="sm" aria-label="Preview subject">
            <b>Subject:</b> {rendered.data.subject || '(none)'}
          </Text>
          <Box
            style={{
              border: '1px solid var(--mantine-color-gray-3)',
              borderRadius: 'var(--mantine-radius-sm)',
              overflow: 'hidden',
            }}
          >
            <iframe
              title="Export preview"
              // No script of the email runs, and it cannot reach the app.
              sandbox=""
              srcDoc={rendered.data.html}
              style={{ border: 0, width: '100%', height: 320, display: 'block' }}
            />
          </Box>
        </Stack>
      )}
    </Stack>
  );
}
