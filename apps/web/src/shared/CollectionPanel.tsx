import { ActionIcon, Button, Group, Menu, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots } from '@tabler/icons-react';
import { type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { errorMessage } from './api-error.ts';
import { confirmDestructive } from './confirm.tsx';
import { EmptyState } from './EmptyState.tsx';
import { ListPagination } from './ListPagination.tsx';
import { QueryState } from './QueryState.tsx';

interface Page<T> {
  results: T[];
  pagination: { page: number; per: number; total: number };
}

/**
 * One kind of dynamic content: its paginated list with the standard states, a create button,
 * and per row edit and delete (confirmed). The form is the caller's, opened for a row or for a new one.
 */
export function CollectionPanel<T extends { id: number | string }>({
  description,
  noun,
  query,
  onPage,
  queryKey,
  headers,
  cells,
  nameOf,
  permissions,
  renderForm,
  deleteItem,
  deleteMessage,
  emptyHint,
}: {
  description: ReactNode;
  /** "conditional": used in buttons and messages. */
  noun: string;
  query: UseQueryResult<Page<T>>;
  onPage: (page: number) => void;
  queryKey: readonly unknown[];
  headers: string[];
  cells: (item: T) => ReactNode[];
  nameOf: (item: T) => string;
  permissions: { create: boolean; update: boolean; delete: boolean };
  renderForm: (item: T | null, close: () => void) => ReactNode;
  deleteItem: (item: T) => Promise<unknown>;
  /** What deleting loses, for the confirmation; by default, that emails lose it. */
  deleteMessage?: string;
  emptyHint: string;
}) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const close = () => setEditing(null);

  const remove = async (item: T) => {
    const confirmed = await confirmDestructive({
      title: `Delete ${nameOf(item)}?`,
      message: deleteMessage ?? `Emails that use this ${noun} lose it. This cannot be undone.`,
      confirmLabel: `Delete ${noun}`,
    });
    if (!confirmed) return;
    try {
      await deleteItem(item);
      await queryClient.invalidateQueries({ queryKey });
      notifications.show({ message: `${nameOf(item)} deleted` });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: `The ${noun} was not deleted`,
        message: errorMessage(error),
      });
    }
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          {description}
        </Text>
        {permissions.create && <Button onClick={() => setEditing('new')}>New {noun}</Button>}
      </Group>
      <QueryState
        query={query}
        isEmpty={(data) => data.results.length === 0}
        empty={
          <EmptyState
            title={`No ${noun}s yet`}
            hint={emptyHint}
            action={
              permissions.create && (
                <Button variant="light" onClick={() => setEditing('new')}>
                  Create the first {noun}
                </Button>
              )
            }
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={600}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    {headers.map((header) => (
                      <Table.Th key={header}>{header}</Table.Th>
                    ))}
                    <Table.Th w={48}>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((item) => (
                    <Table.Tr key={item.id}>
                      {cells(item).map((cell, index) => (
                        <Table.Td key={headers[index]}>{cell}</Table.Td>
                      ))}
                      <Table.Td>
                        <Menu position="bottom-end">
                          <Menu.Target>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={`Actions for ${nameOf(item)}`}
                            >
                              <IconDots size={18} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => setEditing(item)}>
                              {permissions.update ? 'Edit' : 'View'}
                            </Menu.Item>
                            {permissions.delete && (
                              <Menu.Item color="red" onClick={() => remove(item)}>
                                Delete
                              </Menu.Item>
                            )}
                          </Menu.Dropdown>
                        </Menu>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPagination pagination={data.pagination} onPage={onPage} />
          </>
        )}
      </QueryState>
      {editing !== null && renderForm(editing === 'new' ? null : editing, close)}
    </Stack>
  );
}
