import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import {
  CollectionTable,
  type RowAction,
  RowActionsMenu,
  useCollectionEditing,
} from '../../shared/CollectionPanel.tsx';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { SearchInput } from '../../shared/SearchInput.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { confirmAndDeleteProject } from './delete-project.ts';
import { ProjectFormModal } from './ProjectFormModal.tsx';
import { type Project, projectsKey, projectsQuery } from './projects-api.ts';
import { TeamBadge } from './TeamBadge.tsx';

/** The workspace's projects, by name, with the team that owns each. */
export function ProjectsPage() {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const editing = useCollectionEditing<Project>();
  const projects = useQuery(projectsQuery(workspaceId, search, page));

  async function remove(project: Project) {
    if (await confirmAndDeleteProject(workspaceId, project)) {
      await queryClient.invalidateQueries({ queryKey: projectsKey(workspaceId) });
    }
  }

  function rowActions(project: Project): RowAction[] {
    return [
      ...(can('update_projects') ? [{ label: 'Rename or edit', onClick: () => editing.open(project) }] : []),
      ...(can('delete_projects') ? [{ label: 'Delete', color: 'red', onClick: () => remove(project) }] : []),
    ];
  }

  return (
    <>
      <PageHeader
        title="Projects"
        actions={
          can('create_projects') && (
            <Button leftSection={<IconPlus size={16} />} onClick={editing.openNew}>
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
      <CollectionTable
        query={projects}
        onPage={setPage}
        minWidth={560}
        headers={['Name', 'Team', 'Description']}
        cells={(project) => [
          <Anchor
            key="name"
            component={Link}
            to={`/workspaces/${workspaceId}/projects/${project.id}`}
            fw={500}
          >
            {project.name}
          </Anchor>,
          <TeamBadge key="team" team={project.team} />,
          <Text key="description" size="sm" c="dimmed" lineClamp={1}>
            {project.description}
          </Text>,
        ]}
        rowActions={(project) => {
          const actions = rowActions(project);
          return actions.length > 0 && <RowActionsMenu name={project.name} actions={actions} />;
        }}
        empty={
          search ? (
            <Text c="dimmed">No project matches “{search}”.</Text>
          ) : (
            <EmptyState
              title="No projects yet"
              hint="A project groups the emails of one team. Create one to start writing emails."
              action={
                can('create_projects') && (
                  <Button variant="light" onClick={editing.openNew}>
                    Create the first project
                  </Button>
                )
              }
            />
          )
        }
      />
      {editing.isOpen && (
        <ProjectFormModal
          key={editing.item?.id ?? 'new'}
          workspaceId={workspaceId}
          project={editing.item}
          opened
          onClose={editing.close}
        />
      )}
    </>
  );
}
