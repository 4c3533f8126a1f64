import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Menu,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconDots } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../../app/api.ts';
import { useCan } from '../../app/session.ts';
import { errorMessage, unwrap } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { componentListQuery } from '../component-builder/component-builder-api.ts';
import type { DesignSystem } from '../design-systems/design-systems-api.ts';
import { LayoutThumbnail } from './LayoutThumbnail.tsx';
import type { Layout } from './layout-content.ts';

const layoutKeys = (workspaceId: number, systemId: number) =>
  ['workspaces', workspaceId, 'layouts', { email_design_system_id: systemId }] as const;

/** Saved starting points for emails made with this design system: list, open in the editor, rename, delete, start one. */
export function LayoutsPanel({ workspaceId, system }: { workspaceId: number; system: DesignSystem }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Layout | 'new' | null>(null);
  const query = useQuery({
    queryKey: [...layoutKeys(workspaceId, system.id), page],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/layouts', {
          params: {
            path: { workspace_id: workspaceId },
            query: { email_design_system_id: system.id, page, per: 20, sort: 'name_asc' },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const components = useQuery(componentListQuery(workspaceId, system.id));
  const container = components.data?.results.find((component) => component.container);

  const remove = async (layout: Layout) => {
    const confirmed = await confirmDestructive({
      title: `Delete ${layout.name}?`,
      message: 'Emails already started from it keep their content. This cannot be undone.',
      confirmLabel: 'Delete layout',
    });
    if (!confirmed) return;
    try {
      await unwrap(
        api.DELETE('/api/v1/workspaces/{workspace_id}/layouts/{id}', {
          params: { path: { workspace_id: workspaceId, id: layout.id } },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: layoutKeys(workspaceId, system.id) });
      notifications.show({ message: `${layout.name} deleted` });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Not deleted', message: errorMessage(error) });
    }
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Text size="sm" c="dimmed" maw={640}>
          A layout is a saved arrangement of this design system's components that new emails can start from.
          Open one to arrange it in the editor, or save one from an email with Save as layout.
        </Text>
        {can('create_layouts') && (
          <Button
            onClick={() => setEditing('new')}
            disabled={!container}
            title={container ? undefined : 'Add a container component first'}
          >
            New layout
          </Button>
        )}
      </Group>
      <QueryState
        query={query}
        isEmpty={(data) => data.results.length === 0}
        empty={
          <EmptyState
            title="No layouts for this design system"
            hint={
              container
                ? 'Start an empty one, or save one from an email.'
                : 'Layouts need the design system’s container component first.'
            }
            action={
              container &&
              can('create_layouts') && (
                <Button variant="light" onClick={() => setEditing('new')}>
                  Create the first layout
                </Button>
              )
            }
          />
        }
      >
        {(data) => (
          <>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={140}>Preview</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Components</Table.Th>
                  <Table.Th>Updated</Table.Th>
                  <Table.Th w={48}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((layout) => (
                  <Table.Tr key={layout.id}>
                    <Table.Td>
                      <LayoutThumbnail workspaceId={workspaceId} layout={layout} width={120} />
                    </Table.Td>
                    <Table.Td fw={500}>
                      <Link
                        to="/workspaces/$workspaceId/layouts/$layoutId/edit"
                        params={{ workspaceId: String(workspaceId), layoutId: String(layout.id) }}
                        style={{ color: 'inherit' }}
                      >
                        {layout.name}
                      </Link>
                    </Table.Td>
                    <Table.Td>{layout.content.component_instances.length}</Table.Td>
                    <Table.Td>{new Date(layout.updated_at).toLocaleDateString()}</Table.Td>
                    <Table.Td>
                      {(can('update_layouts') || can('delete_layouts')) && (
                        <Menu position="bottom-end">
                          <Menu.Target>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={`Actions for ${layout.name}`}
                            >
                              <IconDots size={18} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {can('update_layouts') && (
                              <>
                                <Menu.Item
                                  component={Link}
                                  to={`/workspaces/${workspaceId}/layouts/${layout.id}/edit`}
                                >
                                  Edit in the editor
                                </Menu.Item>
                                <Menu.Item onClick={() => setEditing(layout)}>Rename</Menu.Item>
                              </>
                            )}
                            {can('delete_layouts') && (
                              <Menu.Item color="red" onClick={() => remove(layout)}>
                                Delete
                              </Menu.Item>
                            )}
                          </Menu.Dropdown>
                        </Menu>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      {editing !== null && (
        <LayoutNameForm
          workspaceId={workspaceId}
          system={system}
          layout={editing === 'new' ? null : editing}
          containerId={container?.id ?? null}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

function LayoutNameForm({
  workspaceId,
  system,
  layout,
  containerId,
  onClose,
}: {
  workspaceId: number;
  system: DesignSystem;
  layout: Layout | null;
  containerId: number | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({ initialValues: { name: layout?.name ?? '' } });
  const save = form.onSubmit(async ({ name }) => {
    setProblems([]);
    try {
      if (layout) {
        await unwrap(
          api.PATCH('/api/v1/workspaces/{workspace_id}/layouts/{id}', {
            params: { path: { workspace_id: workspaceId, id: layout.id } },
            body: { name: name.trim() },
          }),
        );
      } else if (containerId !== null) {
        const created = await unwrap(
          api.POST('/api/v1/workspaces/{workspace_id}/layouts', {
            params: { path: { workspace_id: workspaceId } },
            body: {
              name: name.trim(),
              email_design_system_id: system.id,
              // Just the container: components are added in the editor, which opens next.
              content: {
                container_component_instance: {
                  id: crypto.randomUUID(),
                  component_id: containerId,
                  field_values: {},
                },
                component_instances: [],
              },
            },
          }),
        );
        await queryClient.invalidateQueries({ queryKey: layoutKeys(workspaceId, system.id) });
        await navigate({
          to: '/workspaces/$workspaceId/layouts/$layoutId/edit',
          params: { workspaceId: String(workspaceId), layoutId: String(created.id) },
        });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: layoutKeys(workspaceId, system.id) });
      notifications.show({ message: `${name.trim()} saved` });
      onClose();
    } catch (error) {
      setProblems(showApiErrors(form, error, ['name']));
    }
  });
  return (
    <Modal opened onClose={onClose} title={layout ? `Rename ${layout.name}` : 'New layout'}>
      <form onSubmit={save} noValidate>
        {problems.length > 0 && (
          <Alert color="red" mb="md" role="alert">
            {problems.join(' ')}
          </Alert>
        )}
        <TextInput label="Name" required mb="md" data-autofocus {...form.getInputProps('name')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {layout ? 'Save' : 'Create and open'}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
