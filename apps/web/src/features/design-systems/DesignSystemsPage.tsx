import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Image,
  Menu,
  SegmentedControl,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDots, IconLayoutGrid } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { SearchInput } from '../../shared/SearchInput.tsx';
import { AiGenerationBadge } from '../ai-generation/AiGenerationBadge.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { DesignSystemFormModal } from './DesignSystemFormModal.tsx';
import {
  type ArchivedFilter,
  cloneDesignSystem,
  type DesignSystem,
  deleteDesignSystem,
  designSystemListQuery,
  downloadDesignSystemJson,
  failureText,
  updateDesignSystem,
  useRefreshDesignSystems,
} from './design-systems-api.ts';
import { ImportDesignSystemModal } from './ImportDesignSystemModal.tsx';

/** The workspace's design systems, its own and those shared with it. */
export function DesignSystemsPage() {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [archived, setArchived] = useState<ArchivedFilter>('false');
  const [creating, createModal] = useDisclosure(false);
  const [importing, importModal] = useDisclosure(false);
  const query = useQuery(designSystemListQuery(workspaceId, { page, search, archived }));

  const open = (system: DesignSystem) =>
    navigate({
      to: '/workspaces/$workspaceId/design-systems/$designSystemId',
      params: { workspaceId: String(workspaceId), designSystemId: String(system.id) },
    });

  return (
    <Stack gap={0}>
      <PageHeader
        title="Design systems"
        actions={
          can('create_email_design_systems') && (
            <>
              <Button variant="default" onClick={importModal.open}>
                Import JSON
              </Button>
              <Button onClick={createModal.open}>New design system</Button>
            </>
          )
        }
      />
      <Group justify="space-between" mb="md" wrap="wrap">
        <SearchInput
          value={search}
          onSearch={(term) => {
            setSearch(term);
            setPage(1);
          }}
          label="Search design systems"
        />
        <SegmentedControl
          aria-label="Which design systems"
          value={archived}
          onChange={(value) => {
            setArchived(value as ArchivedFilter);
            setPage(1);
          }}
          data={[
            { value: 'false', label: 'Active' },
            { value: 'true', label: 'Archived' },
            { value: 'all', label: 'All' },
          ]}
        />
      </Group>
      <QueryState
        query={query}
        isEmpty={(data) => data.results.length === 0}
        empty={
          <>
            <IconLayoutGrid size={32} aria-hidden />
            <Text fw={500}>
              {search ? `No design system matches “${search}”` : 'No design systems here yet'}
            </Text>
            <Text size="sm" c="dimmed">
              A design system holds the components (Liquid and HTML with typed fields) that emails are built
              from. Create one, or import one exported from Letterset.
            </Text>
            {!search && can('create_email_design_systems') && (
              <Group justify="center">
                <Button variant="light" onClick={createModal.open}>
                  Create a design system
                </Button>
                <Button variant="default" onClick={importModal.open}>
                  Import a design system
                </Button>
              </Group>
            )}
          </>
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={96}>
                      <VisuallyHidden>Preview</VisuallyHidden>
                    </Table.Th>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Updated</Table.Th>
                    <Table.Th w={48}>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((system) => (
                    <DesignSystemRow
                      key={system.id}
                      system={system}
                      workspaceId={workspaceId}
                      onOpen={() => open(system)}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      {creating && (
        <DesignSystemFormModal workspaceId={workspaceId} opened onClose={createModal.close} onSaved={open} />
      )}
      {importing && (
        <ImportDesignSystemModal
          workspaceId={workspaceId}
          opened
          onClose={importModal.close}
          onImported={open}
        />
      )}
    </Stack>
  );
}

function DesignSystemRow({
  system,
  workspaceId,
  onOpen,
}: {
  system: DesignSystem;
  workspaceId: number;
  onOpen: () => void;
}) {
  const can = useCan();
  const refreshDesignSystems = useRefreshDesignSystems(workspaceId);
  const [editing, editModal] = useDisclosure(false);
  // Systems shared from another workspace are changed only from that workspace.
  const ownsIt = !system.shared;

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      await refreshDesignSystems();
      notifications.show({ message: done });
    } catch (error) {
      notifications.show({ color: 'red', title: 'That did not work', message: failureText(error) });
    }
  };

  const clone = () => run(() => cloneDesignSystem(workspaceId, system.id), `${system.name} copied`);

  const toggleArchived = () =>
    run(
      () => updateDesignSystem(workspaceId, system.id, { archived: !system.archived }),
      system.archived ? `${system.name} restored` : `${system.name} archived`,
    );

  const remove = async () => {
    const confirmed = await confirmDestructive({
      title: `Delete ${system.name}?`,
      message: 'Its components, brand profiles and layouts are deleted with it. This cannot be undone.',
      confirmLabel: 'Delete design system',
    });
    if (!confirmed) return;
    await run(() => deleteDesignSystem(workspaceId, system.id), `${system.name} deleted`);
  };

  return (
    <Table.Tr>
      <Table.Td>
        {system.screenshot_url ? (
          <Image src={system.screenshot_url} alt="" w={80} h={56} radius="sm" fit="cover" />
        ) : (
          <Group w={80} h={56} justify="center" bg="gray.1" style={{ borderRadius: 4 }} aria-hidden>
            <IconLayoutGrid size={20} color="var(--mantine-color-gray-5)" />
          </Group>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs">
          <Anchor component="button" type="button" fw={500} onClick={onOpen}>
            {system.name}
          </Anchor>
          {system.shared && (
            <Badge variant="light" color="grape" size="sm">
              Shared
            </Badge>
          )}
          {system.archived && (
            <Badge variant="light" color="gray" size="sm">
              Archived
            </Badge>
          )}
          {system.upload_status === 'processing' && (
            <Badge variant="light" color="yellow" size="sm">
              Processing
            </Badge>
          )}
          <AiGenerationBadge generation={system} underWayLabel="Designing with AI" />
        </Group>
        {system.description && (
          <Text size="sm" c="dimmed" lineClamp={1}>
            {system.description}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{new Date(system.updated_at).toLocaleDateString()}</Text>
      </Table.Td>
      <Table.Td>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${system.name}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item component={Link} to={`/workspaces/${workspaceId}/design-systems/${system.id}`}>
              Open components
            </Menu.Item>
            {ownsIt && can('update_email_design_systems') && (
              <Menu.Item onClick={editModal.open}>Edit details</Menu.Item>
            )}
            {can('create_email_design_systems') && <Menu.Item onClick={clone}>Make a copy</Menu.Item>}
            <Menu.Item
              onClick={() => run(() => downloadDesignSystemJson(workspaceId, system), 'Export downloaded')}
            >
              Export JSON
            </Menu.Item>
            {ownsIt && can('update_email_design_systems') && (
              <Menu.Item onClick={toggleArchived}>{system.archived ? 'Unarchive' : 'Archive'}</Menu.Item>
            )}
            {ownsIt && can('delete_email_design_systems') && (
              <Menu.Item color="red" onClick={remove}>
                Delete
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
        {editing && (
          <DesignSystemFormModal workspaceId={workspaceId} system={system} opened onClose={editModal.close} />
        )}
      </Table.Td>
    </Table.Tr>
  );
}
