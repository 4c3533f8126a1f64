import { Anchor, Button, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { DeliveredResources } from './DeliveredResources.tsx';
import { ExportProgress, ExportStatusBadge } from './ExportDialog.tsx';
import { downloadOf, type Export, exportKeys, exportsQuery, exportTypeLabels } from './exports-api.ts';

function personName(entry: Export): string {
  return entry.created_by ? `${entry.created_by.first_name} ${entry.created_by.last_name}` : 'A removed user';
}

/** What an export is: its file type, or for a connector export the sending platform it went to. */
function typeOf(entry: Export): string {
  return entry.export_type === 'connector'
    ? (entry.platform ?? 'Sending platform')
    : exportTypeLabels[entry.export_type];
}

/**
 * The workspace's exports, newest first: who exported what, when, how it went, and the files, or
 * for connector exports the platform and what the export made there per locale.
 */
export function ExportsPage() {
  const workspaceId = useWorkspaceId();
  const [page, setPage] = useState(1);
  const query = useQuery(exportsQuery(workspaceId, page));
  return (
    <>
      <PageHeader title="Exports" />
      <CollectionPanel<Export>
        noun="export"
        description="Every export of this workspace's emails. Start one from an email (the email list or the editor): the pre-send checks run first, then the export runs in the background; its file stays here to download."
        query={query}
        onPage={setPage}
        queryKey={exportKeys.all(workspaceId)}
        headers={['Email', 'Type', 'Locales', 'Status', 'By', 'When', 'Result']}
        cells={(entry) => {
          const download = downloadOf(entry);
          return [
            <Stack key="email" gap={0}>
              <Text fw={500}>{entry.email.name}</Text>
              <Text size="xs" c="dimmed">
                as {entry.email.status.replaceAll('_', ' ')}
              </Text>
            </Stack>,
            typeOf(entry),
            entry.status === 'in_progress'
              ? `${entry.progress.locales_done} of ${entry.progress.locales_total}`
              : entry.options.locales.join(', '),
            <ExportStatusBadge key="status" status={entry.status} />,
            personName(entry),
            new Date(entry.created_at).toLocaleString(),
            entry.export_type === 'connector' ? (
              <DeliveredResources key="result" entry={entry} />
            ) : download ? (
              <Anchor key="result" href={download.href} download size="sm">
                {download.label}
              </Anchor>
            ) : (
              '–'
            ),
          ];
        }}
        nameOf={(entry) => `the ${typeOf(entry)} export of ${entry.email.name}`}
        permissions={{ create: false, update: false, delete: false }}
        renderForm={(entry, close) =>
          entry && (
            <Modal opened onClose={close} title={`Export of ${entry.email.name}`} size="lg">
              <Stack>
                <ExportProgress workspaceId={workspaceId} exportId={entry.id} />
                {entry.export_type === 'connector' && <DeliveredResources entry={entry} />}
                <Button variant="default" onClick={close}>
                  Close
                </Button>
              </Stack>
            </Modal>
          )
        }
        deleteItem={() => Promise.reject(new Error('Exports are kept'))}
        emptyHint="Export an email from the email list or the editor, and it shows here."
      />
    </>
  );
}
