import type { ComponentInstance, EditorDocument } from '@letterset/core';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { describeDifferences } from './differences.ts';
import type { Email } from './editor-data.ts';

/** Someone saved this email while the user was editing: show what differs and let the user choose. */
export function ConflictDialog({
  mine,
  theirs,
  labelOf,
  onReloadTheirs,
  onOverwrite,
}: {
  mine: EditorDocument;
  theirs: Email;
  labelOf: (instance: ComponentInstance) => string;
  onReloadTheirs: () => void;
  onOverwrite: () => void;
}) {
  const theirDocument: EditorDocument = {
    content: theirs.email_content as EditorDocument['content'],
    locales: theirs.locales,
    defaultLocale: theirs.default_locale,
  };
  const differences = describeDifferences(mine, theirDocument, labelOf);
  const who = theirs.last_updated_by
    ? `${theirs.last_updated_by.first_name} ${theirs.last_updated_by.last_name}`
    : 'Someone';
  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      title="This email changed while you were editing"
      size="lg"
    >
      <Stack>
        <Text size="sm">
          {who} saved this email at {new Date(theirs.updated_at).toLocaleTimeString()}. Your changes are not
          saved yet.
        </Text>
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
          <Button variant="default" onClick={onReloadTheirs}>
            Reload theirs
          </Button>
          <Button color="red" onClick={onOverwrite}>
            Overwrite with mine
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
