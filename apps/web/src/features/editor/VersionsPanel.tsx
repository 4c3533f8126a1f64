import { Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { type Email, type EmailVersion, restoreVersion, versionsQuery } from './editor-api.ts';

function versionTitle(version: EmailVersion): string {
  const who = version.last_updated_by
    ? `${version.last_updated_by.first_name} ${version.last_updated_by.last_name}`
    : 'Unknown';
  return `${new Date(version.created_at).toLocaleString()} · ${who}`;
}

/**
 * The email's saved versions, newest first. A version can be previewed (rendered the way the
 * editor renders) and restored, which saves it as a new version.
 */
export function VersionsPanel({
  workspaceId,
  emailId,
  readOnly,
  renderVersion,
  onRestored,
}: {
  workspaceId: number;
  emailId: number;
  readOnly: boolean;
  renderVersion: (version: EmailVersion) => string;
  onRestored: (email: Email) => void;
}) {
  const [page, setPage] = useState(1);
  const [previewing, setPreviewing] = useState<EmailVersion | null>(null);
  const versions = useQuery(versionsQuery(workspaceId, emailId, page));
  const restore = useMutation({
    mutationFn: (version: EmailVersion) => restoreVersion(workspaceId, emailId, version.version_id),
    onSuccess: (email) => {
      setPreviewing(null);
      notifications.show({ color: 'green', message: 'The version was restored.' });
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
        query={versions}
        isEmpty={(data) => data.results.length === 0}
        empty={<Text c="dimmed">No versions yet.</Text>}
      >
        {(data) => (
          <>
            {data.results.map((version, index) => (
              <Paper key={version.version_id} withBorder p="xs">
                <Text size="sm">{versionTitle(version)}</Text>
                <Text size="xs" c="dimmed">
                  {version.email_data.email_content.component_instances.length} components ·{' '}
                  {version.email_data.locales.join(', ')}
                  {page === 1 && index === 0 ? ' · current' : ''}
                </Text>
                <Group gap="xs" mt={4}>
                  <Button size="compact-xs" variant="light" onClick={() => setPreviewing(version)}>
                    Preview
                  </Button>
                  {!readOnly && !(page === 1 && index === 0) && (
                    <Button
                      size="compact-xs"
                      variant="default"
                      loading={restore.isPending}
                      onClick={() => confirmRestore(version)}
                    >
                      Restore
                    </Button>
                  )}
                </Group>
              </Paper>
            ))}
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      {previewing && (
        <Modal
          opened
          onClose={() => setPreviewing(null)}
          title={`Version of ${versionTitle(previewing)}`}
          size="xl"
        >
          <iframe
            title="Version preview"
            sandbox=""
            srcDoc={renderVersion(previewing)}
            style={{ border: 0, width: '100%', height: '65vh' }}
          />
          {!readOnly && (
            <Group justify="flex-end" mt="sm">
              <Button loading={restore.isPending} onClick={() => confirmRestore(previewing)}>
                Restore this version
              </Button>
            </Group>
          )}
        </Modal>
      )}
    </Stack>
  );
}
