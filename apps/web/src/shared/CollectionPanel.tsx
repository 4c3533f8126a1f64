import { ActionIcon, Button, Group, Menu, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots } from '@tabler/icons-react';
import { type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import { Link, type LinkProps } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { errorMessage } from './api-error.ts';
import { confirmDestructive } from './confirm.tsx';
import { EmptyState } from './EmptyState.tsx';
import { ListPagination } from './ListPagination.tsx';
import { QueryState } from './QueryState.tsx';

/*
 * The pieces every list-and-edit screen is built from: which item is open in the form, the
 * confirmed delete, the table of one page with its loading, error and empty states, and the
 * per-row menu. `CollectionPanel` puts them together for the common screen; a screen with its own
 * header or filters composes the pieces itself.
 */

export interface Page<T> {
  results: T[];
  pagination: { page: number; per: number; total: number };
}

/** An entry of a row's menu: an action, or a link (which can also open in a new tab). */
export type RowAction = { label: string; color?: string } & (
  | { onClick: () => void; link?: never }
  | { link: LinkProps; onClick?: never }
);

/** Which item the form shows: an existing one, a new one, or none (closed). */
export function useCollectionEditing<T>() {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  return {
    /** The item open in the form: null for a new one. Only meaningful while `isOpen`. */
    item: editing === 'new' ? null : editing,
    isOpen: editing !== null,
    isNew: editing === 'new',
    openNew: () => setEditing('new'),
    open: (item: T) => setEditing(item),
    close: () => setEditing(null),
  };
}

/** What a confirmed delete asks and says; the defaults suit dynamic content. */
export interface ConfirmedDeleteOptions<T> {
  /** "conditional": used in the default texts. */
  noun: string;
  nameOf: (item: T) => string;
  deleteItem: (item: T) => Promise<unknown>;
  /** The list to refresh once deleted. */
  queryKey: readonly unknown[];
  /** What deleting loses, for the confirmation; by default, that emails lose it. */
  deleteMessage?: string | ((item: T) => string);
  confirmTitle?: (item: T) => string;
  confirmLabel?: string;
  deletedMessage?: (item: T) => string;
  failureTitle?: string;
  failureMessage?: (error: unknown) => string;
}

/** Deleting an item: asked first, then done, the list refreshed and the outcome shown. */
export function useConfirmedDelete<T>(options: ConfirmedDeleteOptions<T>) {
  const queryClient = useQueryClient();
  const { noun, nameOf } = options;
  return async (item: T) => {
    const message =
      typeof options.deleteMessage === 'function' ? options.deleteMessage(item) : options.deleteMessage;
    const confirmed = await confirmDestructive({
      title: options.confirmTitle?.(item) ?? `Delete ${nameOf(item)}?`,
      message: message ?? `Emails that use this ${noun} lose it. This cannot be undone.`,
      confirmLabel: options.confirmLabel ?? `Delete ${noun}`,
    });
    if (!confirmed) return;
    try {
      await options.deleteItem(item);
      await queryClient.invalidateQueries({ queryKey: options.queryKey });
      notifications.show({ message: options.deletedMessage?.(item) ?? `${nameOf(item)} deleted` });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: options.failureTitle ?? `The ${noun} was not deleted`,
        message: (options.failureMessage ?? errorMessage)(error),
      });
    }
  };
}

/** The "…" menu at the end of a row. */
export function RowActionsMenu({ name, actions }: { name: string; actions: RowAction[] }) {
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) =>
          action.link ? (
            <Menu.Item key={action.label} color={action.color} component={Link} {...action.link}>
              {action.label}
            </Menu.Item>
          ) : (
            <Menu.Item key={action.label} color={action.color} onClick={action.onClick}>
              {action.label}
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** One page of a collection as a table, with the loading, error and empty states and the pager. */
export function CollectionTable<T extends { id: number | string }>({
  query,
  onPage,
  headers,
  cells,
  rowActions,
  empty,
  minWidth = 600,
}: {
  query: UseQueryResult<Page<T>>;
  onPage: (page: number) => void;
  headers: string[];
  cells: (item: T) => ReactNode[];
  /** The last cell of each row (a menu or buttons); none when the screen has no per-row actions. */
  rowActions?: (item: T) => ReactNode;
  /** Shown instead of the table when the list is empty. */
  empty: ReactNode;
  minWidth?: number;
}) {
  return (
    <QueryState query={query} isEmpty={(data) => data.results.length === 0} empty={empty}>
      {(data) => (
        <>
          <Table.ScrollContainer minWidth={minWidth}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  {headers.map((header) => (
                    <Table.Th key={header}>{header}</Table.Th>
                  ))}
                  {rowActions && (
                    <Table.Th w={48}>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((item) => (
                  <Table.Tr key={item.id}>
                    {cells(item).map((cell, index) => (
                      <Table.Td key={headers[index]}>{cell}</Table.Td>
                    ))}
                    {rowActions && <Table.Td>{rowActions(item)}</Table.Td>}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListPagination pagination={data.pagination} onPage={onPage} />
        </>
      )}
    </QueryState>
  );
}

/**
 * A collection's screen: its description and create button, the paginated table with the
 * standard states, and per row edit and delete (confirmed) plus any further actions. The form is
 * the caller's, opened for a row or for a new one.
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
  filters,
  moreRowActions,
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
  /** Controls that narrow the list, shown above it. */
  filters?: ReactNode;
  /** Row actions beside Edit and Delete. */
  moreRowActions?: (item: T) => RowAction[];
}) {
  const editing = useCollectionEditing<T>();
  const remove = useConfirmedDelete({ noun, nameOf, deleteItem, queryKey, deleteMessage });

  return (
    <Stack>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          {description}
        </Text>
        {permissions.create && <Button onClick={editing.openNew}>New {noun}</Button>}
      </Group>
      {filters}
      <CollectionTable
        query={query}
        onPage={onPage}
        headers={headers}
        cells={cells}
        empty={
          <EmptyState
            title={`No ${noun}s yet`}
            hint={emptyHint}
            action={
              permissions.create && (
                <Button variant="light" onClick={editing.openNew}>
                  Create the first {noun}
                </Button>
              )
            }
          />
        }
        rowActions={(item) => (
          <RowActionsMenu
            name={nameOf(item)}
            actions={[
              { label: permissions.update ? 'Edit' : 'View', onClick: () => editing.open(item) },
              ...(moreRowActions?.(item) ?? []),
              ...(permissions.delete ? [{ label: 'Delete', color: 'red', onClick: () => remove(item) }] : []),
            ]}
          />
        )}
      />
      {editing.isOpen && renderForm(editing.item, editing.close)}
    </Stack>
  );
}
