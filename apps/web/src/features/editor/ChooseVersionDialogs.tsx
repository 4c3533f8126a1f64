import type { ComponentInstance, EditorDocument } from '@letterset/core';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ServerCopy } from './autosave.ts';
import { describeDifferences, type OtherVersion } from './differences.ts';
import { documentOf, type EditTarget } from './edit-target.ts';

/**
 * Two versions of the email (or layout) and a choice between them, with what differs spelled out. Nothing is
 * saved while it is open, and it cannot be dismissed without choosing.
 */
function ChooseVersionDialog({
  title,
  intro,
  mine,
  theirs,
  labelOf,
  other,
  discardLabel,
  keepLabel,
  onDiscard,
  onKeep,
}: {
  title: string;
  intro: ReactNode;
  mine: EditorDocument;
  theirs: EditorDocument;
  labelOf: (instance: ComponentInstance) => string;
  other: OtherVersion;
  discardLabel: string;
  keepLabel: string;
  onDiscard: () => void;
  onKeep: () => void;
}) {
  const differences = describeDifferences(mine, theirs, labelOf, other);
  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={title}
      size="lg"
    >
      <Stack>
        <Text size="sm">{intro}</Text>
        {differences.length > 0 ? (
          <List size="sm" spacing={4} aria-label="What differs">
            {differences.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm" c="dimmed">
            The content is the same; only the email’s settings changed.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDiscard}>
            {discardLabel}
          </Button>
          <Button color="red" onClick={onKeep}>
            {keepLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Someone saved this email or layout while the user was editing: show what differs and let the user choose. */
export function ConflictDialog({
  mine,
  theirs,
  labelOf,
  onReloadTheirs,
  onOverwrite,
}: {
  mine: EditorDocument;
  theirs: ServerCopy<EditTarget>;
  labelOf: (instance: ComponentInstance) => string;
  onReloadTheirs: () => void;
  onOverwrite: () => void;
}) {
  const what = theirs.saved.kind;
  const editor = theirs.saved.kind === 'email' ? theirs.saved.email.last_updated_by : null;
  const who = editor ? `${editor.first_name} ${editor.last_name}` : 'Someone';
  return (
    <ChooseVersionDialog
      title={`This ${what} changed while you were editing`}
      intro={`${who} saved this ${what} at ${new Date(updatedAt(theirs.saved)).toLocaleTimeString()}. Your changes are not saved yet.`}
      mine={mine}
      theirs={theirs.document}
      labelOf={labelOf}
      other="theirs"
      discardLabel="Reload theirs"
      keepLabel="Overwrite with mine"
      onDiscard={onReloadTheirs}
      onKeep={onOverwrite}
    />
  );
}

/**
 * This tab (or a tab of this browser that was closed since) kept changes from an earlier session
 * that the server does not have (the page was closed before they were saved, or they were undone
 * after a save): keep them or drop them.
 */
export function RestoredDraftDialog({
  draft,
  server,
  labelOf,
  onDiscard,
  onKeep,
  fromAnotherTab = false,
  writtenAt = null,
}: {
  draft: EditorDocument;
  server: EditTarget;
  labelOf: (instance: ComponentInstance) => string;
  onDiscard: () => void;
  onKeep: () => void;
  /** The changes were left by another tab of this browser, closed since, rather than made in this one. */
  fromAnotherTab?: boolean;
  /** When the changes were last made (milliseconds), if known. */
  writtenAt?: number | null;
}) {
  const where = fromAnotherTab ? 'A tab of this browser that was closed kept' : 'This tab kept';
  const when = writtenAt === null ? '' : `, last made ${new Date(writtenAt).toLocaleString()}`;
  return (
    <ChooseVersionDialog
      title={fromAnotherTab ? 'Unsaved changes from a closed tab' : 'Unsaved changes from an earlier session'}
      intro={`${where} changes to this ${server.kind} that were never saved${when}. The saved version is from ${new Date(updatedAt(server)).toLocaleString()}. The editor shows the unsaved changes, merged with what was saved since where they do not touch the same values; keep them to save them, or discard them.`}
      mine={draft}
      theirs={documentOf(server)}
      labelOf={labelOf}
      other="saved"
      discardLabel="Discard my changes"
      keepLabel="Keep my changes"
      onDiscard={onDiscard}
      onKeep={onKeep}
    />
  );
}

function updatedAt(target: EditTarget): string {
  return target.kind === 'email' ? target.email.updated_at : target.layout.updated_at;
}
