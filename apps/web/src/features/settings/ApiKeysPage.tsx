import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { failureMessage } from './failure-message.ts';
import {
  type ApiKey,
  apiKeysQuery,
  createApiKey,
  formatDateTime,
  fullName,
  revokeApiKey,
} from './settings-api.ts';

const perPage = 20;

/** The API keys you may see (yours, and those of people within your keys): create, see when used, revoke. */
export function ApiKeysPage() {
  const can = useCan();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [creating, { open, close }] = useDisclosure();
  const keys = useQuery(apiKeysQuery({ page, per: perPage }));

  const revoke = async (key: ApiKey) => {
    const confirmed = await confirmDestructive({
      title: 'Revoke API key',
      message: `Revoke “${key.name}”? Programs using it stop working at once.`,
      confirmLabel: 'Revoke',
    });
    if (!confirmed) return;
    try {
      await revokeApiKey(key.id);
      notifications.show({ color: 'teal', message: `“${key.name}” was revoked.` });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not revoke the key', message: failureMessage(error) });
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    }
  };

  return (
    <Stack>
      <PageHeader
        title="API keys"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'API keys' }]}
        actions={can('manage_api_keys') && <Button onClick={open}>Create API key</Button>}
      />
      <Text size="sm" c="dimmed" maw={720}>
        Programs send a key as <Code>Authorization: Bearer …</Code>. A key acts as the person who created it,
        with their role as it is at each request. You see your own keys and, with the permission to manage API
        keys, those of people whose every permission you hold.
      </Text>
      <QueryState
        query={keys}
        isEmpty={(data) => data.results.length === 0}
        empty={
          <>
            <Text fw={500}>No API keys yet</Text>
            <Text size="sm" c="dimmed">
              Create one to use the API from scripts, your sending platform or CI.
            </Text>
          </>
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Starts with</Table.Th>
                    <Table.Th>Created by</Table.Th>
                    <Table.Th>Last used</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((key) => (
                    <Table.Tr key={key.id}>
                      <Table.Td fw={500}>{key.name}</Table.Td>
                      <Table.Td>
                        <Code>{key.prefix}…</Code>
                      </Table.Td>
                      <Table.Td>{key.creator ? fullName(key.creator) : 'A removed user'}</Table.Td>
                      <Table.Td>{key.last_used_at ? formatDateTime(key.last_used_at) : 'Never'}</Table.Td>
                      <Table.Td>{formatDateTime(key.created_at)}</Table.Td>
                      <Table.Td ta="right">
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          aria-label={`Revoke ${key.name}`}
                          onClick={() => revoke(key)}
                        >
                          Revoke
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      <Modal opened={creating} onClose={close} title="Create API key" closeOnClickOutside={false}>
        {creating && <CreateKey onDone={close} />}
      </Modal>
    </Stack>
  );
}

/** Names the key, then shows its secret: the only time anyone can read it. */
function CreateKey({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const [problem, setProblem] = useState<string[]>([]);
  const form = useForm({
    initialValues: { name: '' },
    validate: { name: (value) => (value.trim() ? null : 'Name the key after what will use it') },
  });
  const create = useMutation({
    mutationFn: createApiKey,
    onSuccess: (created) => {
      setSecret(created.key);
      queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
    onError: (error) => setProblem(showApiErrors(form, error, ['name'])),
  });

  if (secret) {
    return (
      <Stack gap="sm">
        <Alert color="yellow" title="Copy the key now">
          This is the only time the key is shown. Store it somewhere safe, such as your platform’s secret
          settings; if it is lost, create a new key and revoke this one.
        </Alert>
        <Code block aria-label="New API key" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={form.onSubmit((values) => create.mutate(values.name.trim()))} noValidate>
      <Stack gap="sm">
        {problem.length > 0 && (
          <Alert color="red" role="alert">
            {problem.join(' ')}
          </Alert>
        )}
        <TextInput
          label="Name"
          description="What will use the key, e.g. “Sending platform” or “CI”"
          required
          data-autofocus
          maxLength={100}
          {...form.getInputProps('name')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
