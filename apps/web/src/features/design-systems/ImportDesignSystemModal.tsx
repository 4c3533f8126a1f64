import { Alert, Button, FileInput, Group, List, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import {
  type DesignSystem,
  type DesignSystemJson,
  importDesignSystem,
  syncDesignSystem,
  useRefreshDesignSystems,
} from './design-systems-api.ts';

/**
 * Creates a design system from an exported JSON file, or, given `replacing`, replaces that system
 * with the file (sync). The API checks it all before changing anything.
 */
export function ImportDesignSystemModal({
  workspaceId,
  replacing,
  opened,
  onClose,
  onImported,
}: {
  workspaceId: number;
  replacing?: DesignSystem;
  opened: boolean;
  onClose: () => void;
  onImported: (system: DesignSystem) => void;
}) {
  const refreshDesignSystems = useRefreshDesignSystems(workspaceId);
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [importing, setImporting] = useState(false);

  const importFile = async () => {
    if (!file) return;
    setProblems([]);
    let document: DesignSystemJson;
    try {
      document = JSON.parse(await file.text()) as DesignSystemJson;
    } catch {
      setProblems([`${file.name} is not a JSON file.`]);
      return;
    }
    setImporting(true);
    try {
      const system = replacing
        ? await syncDesignSystem(workspaceId, replacing.id, document)
        : await importDesignSystem(workspaceId, document);
      // Components live under the system's key too, so a replacement refreshes them as well.
      await refreshDesignSystems();
      notifications.show({
        message: replacing ? `${system.name} replaced from the file` : `${system.name} imported`,
      });
      setFile(null);
      onImported(system);
    } catch (error) {
      const paths = error instanceof ApiError ? Object.entries(error.fieldErrors) : [];
      setProblems(
        paths.length > 0
          ? paths.map(([path, messages]) => `${path}: ${messages.join('; ')}`)
          : [errorMessage(error)],
      );
    } finally {
      setImporting(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={replacing ? `Replace ${replacing.name} from JSON` : 'Import a design system'}
    >
      <Text size="sm" mb="sm">
        {replacing
          ? 'Name, description, tokens, custom styles, the container and the components become the file’s. Components are matched by name and keep their place in existing emails; components missing from the file are deprecated, never deleted. Nothing changes unless every template and field definition in the file is valid.'
          : 'Choose a JSON file exported from Letterset. Nothing is created unless every template and field definition in it is valid.'}
      </Text>
      <FileInput
        label="Design system JSON"
        accept="application/json,.json"
        value={file}
        onChange={(chosen) => {
          setFile(chosen);
          setProblems([]);
        }}
        clearable
        mb="md"
      />
      {problems.length > 0 && (
        <Alert
          color="red"
          mb="md"
          role="alert"
          title={replacing ? 'Nothing was replaced' : 'The file was not imported'}
        >
          <List size="sm">
            {problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={importFile} disabled={!file} loading={importing}>
          {replacing ? 'Replace' : 'Import'}
        </Button>
      </Group>
    </Modal>
  );
}
