import { ActionIcon, Anchor, Button, Group, Menu, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { SearchInput } from '../../shared/SearchInput.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { deleteProject } from './delete-project.ts';
import { ProjectFormModal } from './ProjectFormModal.tsx';
import { type Project, projectsQuery } from './projects-api.ts';
import { TeamBadge } from './TeamBadge.tsx';

/** The workspace's projects, by name, with the team that owns each. */
export function ProjectsPage() {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  // null: the form is closed; 'new': creating; a project: editing it.
  const [editing, setEditing] = useState<Project | 'new' | null>(null);
  const projects = useQuery(projectsQuery(workspaceId, search, page));

  async function remove(project: Project) {
    if (await deleteProject(workspaceId, project)) {
      await queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'projects'] });
    }
  }

  return (
    <>
      <PageHeader
        title="Projects"
        actions={
          can('create_projects') && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              New project
            </Button>
          )
        }
      />
      <Group mb="md">
        <SearchInput
          value={search}
          label="Search projects"
          onSearch={(term) => {
            setSearch(term);
            setPage(1);
          }}
        />
      </Group>
      <QueryState
        query={projects}
        isEmpty={(data) => data.results.length === 0}
        empty={
          search ? (
            <Text c="dimmed">No project matches “{search}”.</Text>
          ) : (
            <EmptyState
              title="No projects yet"
              hint="A project groups the emails of one team. Create one to start writing emails."
              action={
                can('create_projects') && (
                  <Button variant="light" onClick={() => setEditing('new')}>
                    Create the first project
                  </Button>
                )
              }
            />
          )
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Team</Table.Th>
                    <Table.Th>Description</Table.Th>
                    <Table.Th w={56}>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((project) => (
                    <Table.Tr key={project.id}>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`/workspaces/${workspaceId}/projects/${project.id}`}
                          fw={500}
                        >
                          {project.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <TeamBadge team={project.team} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed" lineClamp={1}>
                          {project.description}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {(can('update_projects') || can('delete_projects')) && (
                          <Menu position="bottom-end">
                            <Menu.Target>
                              <ActionIcon
                                variant="subtle"
                                color="gray"
                                aria-label={`Actions for ${project.name}`}
                              >
                                <IconDots size={16} />
                              </ActionIcon>
                            </Menu.Target>
                            <Menu.Dropdown>
                              {can('update_projects') && (
                                <Menu.Item onClick={() => setEditing(project)}>Rename or edit</Menu.Item>
                              )}
                              {can('delete_projects') && (
                                <Menu.Item color="red" onClick={() => remove(project)}>
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
            </Table.ScrollContainer>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      {editing !== null && (
        <ProjectFormModal
          key={editing === 'new' ? 'new' : editing.id}
          workspaceId={workspaceId}
          project={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
