import { Avatar, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { relativeTime } from '../../shared/relative-time.ts';
import {
  type Email,
  type EmailHistoryEntry,
  type EmailVersion,
  historyQuery,
  nameVersion,
  reopenOnHistory,
  restoreVersion,
} from './editor-api.ts';

const maxNameLength = 100;

function authorOf(entry: EmailHistoryEntry): string {
  return entry.last_updated_by
    ? `${entry.last_updated_by.first_name} ${entry.last_updated_by.last_name}`
    : 'Someone no longer here';
}

function initialsOf(entry: EmailHistoryEntry): string {
  const person = entry.last_updated_by;
  return person ? `${person.first_name.charAt(0)}${person.last_name.charAt(0)}` : '?';
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** "28 Nov 2026, 09:00–09:42", or one moment for a single save. */
function periodOf(entry: EmailHistoryEntry): string {
  const started = new Date(entry.started_at);
  const ended = new Date(entry.ended_at);
  if (entry.saves === 1 || started.getTime() === ended.getTime()) return dateTime.format(ended);
  const sameDay = started.toDateString() === ended.toDateString();
  const end = sameDay ? timeOnly.format(ended) : dateTime.format(ended);
  // Saves within one minute read as one moment.
  return dateTime.format(started).endsWith(end)
    ? dateTime.format(ended)
    : `${dateTime.format(started)} – ${end}`;
}

/** What happened, in the words a person would use: the AI feature, the restore, or the edits. */
function headlineOf(entry: EmailHistoryEntry): string {
  if (entry.kind === 'ai_feature') {
    const feature = (entry.version.ai_feature ?? 'AI').replaceAll('_', ' ');
    return `Written by AI (${feature})${entry.changes ? `: ${entry.changes}` : ''}`;
  }
  if (entry.kind === 'restore' && entry.restored_from) {
    const from = entry.restored_from.name
      ? `“${entry.restored_from.name}”`
      : entry.restored_from.created_at
        ? `the version of ${dateTime.format(new Date(entry.restored_from.created_at))}`
        : 'an earlier version';
    return `Restored ${from}${entry.changes ? `: ${entry.changes}` : ''}`;
  }
  return entry.changes || 'No visible changes';
}

/**
 * The email's history as editing sessions, newest first: who, when, what changed in words and
 * how many saves. Any entry (its last version) can be previewed the way the editor renders it,
 * named ("Sent to legal"), and restored, which saves it as a new version.
 */
export function VersionsPanel({
  workspaceId,
  emailId,
  savedVersion,
  readOnly,
  renderVersion,
  onRestored,
}: {
  workspaceId: number;
  emailId: number;
  /** The email's lock_version: the history refreshes when it moves (an autosave, a restore). */
  savedVersion: number;
  readOnly: boolean;
  renderVersion: (version: EmailVersion) => string;
  onRestored: (email: Email) => void;
}) {
  const [page, setPage] = useState(1);
  const [previewing, setPreviewing] = useState<EmailHistoryEntry | null>(null);
  const [naming, setNaming] = useState<EmailHistoryEntry | null>(null);
  const history = useQuery({
    ...historyQuery(workspaceId, emailId, page, savedVersion),
    placeholderData: keepPreviousData,
  });
  const restore = useMutation({
    mutationFn: (version: EmailVersion) => restoreVersion(workspaceId, emailId, version.version_id),
    onSuccess: (email) => {
      setPreviewing(null);
      setPage(1);
      notifications.show({ color: 'green', message: 'The version was restored.' });
      reopenOnHistory(emailId);
      onRestored(email);
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });

  async function confirmRestore(version: EmailVersion) {
    const confirmed = await confirmDestructive({
      title: 'Restore this version?',
      message: 'Its content and locales become the current email; the current content stays in the history.',
      confirmLabel: 'Restore',
    });
    if (confirmed) restore.mutate(version);
  }

  return (
    <Stack gap="xs">
      <QueryState
        query={history}
        isEmpty={(data) => data.results.length === 0}
        empty={<Text c="dimmed">No versions yet: each save records one.</Text>}
      >
        {(data) => (
          <>
            <Stack component="ol" gap="xs" p={0} m={0} aria-label="History" style={{ listStyle: 'none' }}>
              {data.results.map((entry, index) => {
                const current = data.pagination.page === 1 && index === 0;
                return (
                  <Paper
                    component="li"
                    key={entry.version.version_id}
                    withBorder
                    p="xs"
                    aria-label={`${authorOf(entry)}, ${periodOf(entry)}`}
                  >
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <Avatar
                        src={entry.last_updated_by?.profile_image_url ?? null}
                        radius="xl"
                        size="sm"
                        alt=""
                      >
                        {initialsOf(entry)}
                      </Avatar>
                      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                        <Group gap={6} wrap="wrap">
                          <Text size="sm" fw={500}>
                            {authorOf(entry)}
                          </Text>
                          <Text size="xs" c="dimmed" title={periodOf(entry)}>
                            {relativeTime(entry.ended_at)}
                          </Text>
                          {entry.name && (
                            <Badge size="sm" variant="light" data-testid="version-name">
                              {entry.name}
                            </Badge>
                          )}
                          {current && (
                            <Badge size="sm" variant="outline" color="gray">
                              Current
                            </Badge>
                          )}
                        </Group>
                        <Text size="sm" data-testid="history-changes">
                          {headlineOf(entry)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {periodOf(entry)} · {entry.saves === 1 ? '1 save' : `${entry.saves} saves`}
                        </Text>
                        <Group gap="xs" mt={4}>
                          <Button size="compact-xs" variant="light" onClick={() => setPreviewing(entry)}>
                            Preview
                          </Button>
                          {!readOnly && (
                            <Button size="compact-xs" variant="default" onClick={() => setNaming(entry)}>
                              {entry.name ? 'Rename' : 'Name'}
                            </Button>
                          )}
                          {!readOnly && !current && (
                            <Button
                              size="compact-xs"
                              variant="default"
                              loading={restore.isPending}
                              onClick={() => confirmRestore(entry.version)}
                            >
                              Restore
                            </Button>
                          )}
                        </Group>
                      </Stack>
                    </Group>
                  </Paper>
                );
              })}
            </Stack>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      {previewing && (
        <Modal
          opened
          onClose={() => setPreviewing(null)}
          title={`${previewing.name ? `“${previewing.name}” · ` : ''}${authorOf(previewing)}, ${periodOf(previewing)}`}
          size="xl"
        >
          <iframe
            title="Version preview"
            sandbox=""
            srcDoc={renderVersion(previewing.version)}
            style={{ border: 0, width: '100%', height: '65vh' }}
          />
          {!readOnly && (
            <Group justify="flex-end" mt="sm">
              <Button loading={restore.isPending} onClick={() => confirmRestore(previewing.version)}>
                Restore this version
              </Button>
            </Group>
          )}
        </Modal>
      )}
      {naming && (
        <NameVersionDialog
          workspaceId={workspaceId}
          emailId={emailId}
          entry={naming}
          onClose={() => setNaming(null)}
          onNamed={() => {
            setNaming(null);
            history.refetch();
          }}
        />
      )}
    </Stack>
  );
}

/** Names the entry's last version, or clears its name. */
function NameVersionDialog({
  workspaceId,
  emailId,
  entry,
  onClose,
  onNamed,
}: {
  workspaceId: number;
  emailId: number;
  entry: EmailHistoryEntry;
  onClose: () => void;
  onNamed: () => void;
}) {
  const [name, setName] = useState(entry.name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (next: string | null) => nameVersion(workspaceId, emailId, entry.version.version_id, next),
    onSuccess: (version) => {
      notifications.show({
        color: 'green',
        message: version.name ? `The version is named “${version.name}”.` : 'The version’s name was cleared.',
      });
      onNamed();
    },
    onError: (error) =>
      setProblem(
        error instanceof ApiError && error.fieldErrors.name
          ? `The name ${error.fieldErrors.name.join(', ')}`
          : errorMessage(error),
      ),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length === 0) return setProblem('Enter a name, or clear it.');
    if (trimmed.length > maxNameLength) return setProblem(`At most ${maxNameLength} characters.`);
    save.mutate(trimmed);
  }

  return (
    <Modal opened onClose={onClose} title="Name this version">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            The version saved {periodOf({ ...entry, started_at: entry.ended_at, saves: 1 })} by{' '}
            {authorOf(entry)}. A name marks it in the history (“Sent to legal”) and ends its editing session
            there.
          </Text>
          <TextInput
            label="Name"
            data-autofocus
            value={name}
            maxLength={maxNameLength + 20}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setProblem(null);
            }}
            error={problem}
          />
          <Group justify="flex-end">
            {entry.name && (
              <Button variant="subtle" color="red" loading={save.isPending} onClick={() => save.mutate(null)}>
                Clear name
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save name
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
