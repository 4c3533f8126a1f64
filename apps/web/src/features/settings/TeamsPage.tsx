import { Badge, Button, Drawer, Modal, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { failureMessage } from './failure-message.ts';
import { MemberRowActions } from './MemberRowActions.tsx';
import { Membership } from './Membership.tsx';
import {
  addTeamMember,
  allWorkspacesQuery,
  deleteTeam,
  fullName,
  removeTeamMember,
  type Team,
  teamMembersQuery,
  teamsQuery,
} from './settings-api.ts';
import { TeamForm } from './TeamForm.tsx';
import { teamColorHex } from './team-colors.ts';

const perPage = 20;

/** Teams own projects inside a workspace: create, rename, recolour, delete, and their members. */
export function TeamsPage() {
  const can = useCan();
  const queryClient = useQueryClient();
  const [workspaceId, setWorkspaceId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Team | 'new' | null>(null);
  const [members, setMembers] = useState<Team | null>(null);
  const workspaces = useQuery(allWorkspacesQuery);
  const teams = useQuery(teamsQuery(workspaceId, { page, per: perPage }));
  const workspaceName = (id: number) =>
    workspaces.data?.find((workspace) => workspace.id === id)?.name ?? '…';

  const remove = async (team: Team) => {
    const confirmed = await confirmDestructive({
      title: 'Delete team',
      message: `Delete the team “${team.name}”?`,
      confirmLabel: 'Delete',
    });
    if (!confirmed) return;
    try {
      await deleteTeam(team.id);
      notifications.show({ color: 'teal', message: `“${team.name}” was deleted.` });
      await queryClient.invalidateQueries({ queryKey: ['teams'] });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not delete the team',
        message: failureMessage(error),
      });
    }
  };

  return (
    <Stack>
      <PageHeader
        title="Teams"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Teams' }]}
        actions={can('create_teams') && <Button onClick={() => setEditing('new')}>New team</Button>}
      />
      <Select
        label="Workspace"
        placeholder="All workspaces"
        clearable
        w={{ base: '100%', sm: 280 }}
        data={(workspaces.data ?? []).map((workspace) => ({
          value: String(workspace.id),
          label: workspace.name,
        }))}
        value={workspaceId === null ? null : String(workspaceId)}
        onChange={(value) => {
          setWorkspaceId(value ? Number(value) : null);
          setPage(1);
        }}
      />
      <QueryState
        query={teams}
        isEmpty={(data) => data.results.length === 0}
        empty={
          <EmptyState
            title="No teams yet"
            hint="Teams own projects; people see the projects of their teams. Create one before the first project."
            action={
              can('create_teams') && (
                <Button variant="light" onClick={() => setEditing('new')}>
                  Create the first team
                </Button>
              )
            }
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Team</Table.Th>
                    <Table.Th>Workspace</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((team) => (
                    <Table.Tr key={team.id}>
                      <Table.Td>
                        <Badge color={teamColorHex[team.badge_color]} autoContrast size="lg">
                          {team.name}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{workspaceName(team.workspace_id)}</Table.Td>
                      <Table.Td>
                        <MemberRowActions
                          name={team.name}
                          onMembers={() => setMembers(team)}
                          onEdit={can('update_teams') ? () => setEditing(team) : undefined}
                          onDelete={can('delete_teams') ? () => remove(team) : undefined}
                        />
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
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New team' : 'Edit team'}
      >
        {editing !== null && (
          <TeamForm
            team={editing === 'new' ? null : editing}
            defaultWorkspaceId={workspaceId}
            onCancel={() => setEditing(null)}
            onDone={(saved) => {
              setEditing(null);
              notifications.show({ color: 'teal', message: `“${saved.name}” was saved.` });
            }}
          />
        )}
      </Modal>
      <Drawer
        opened={members !== null}
        onClose={() => setMembers(null)}
        position="right"
        size="lg"
        title={members ? `Members of ${members.name}` : ''}
      >
        {members && <TeamMembers team={members} />}
      </Drawer>
    </Stack>
  );
}

function TeamMembers({ team }: { team: Team }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const members = useQuery(teamMembersQuery(team.id, { page, per: perPage }));
  return (
    <Membership
      groupName={team.name}
      members={members}
      onPage={setPage}
      canManage={can('update_teams')}
      note={
        <Text size="sm" c="dimmed">
          Only members of the team’s workspace can join it.
        </Text>
      }
      removeQuestion={(member) => `Remove ${fullName(member)} from ${team.name}?`}
      addMember={(userId) => addTeamMember(team.id, userId)}
      removeMember={(userId) => removeTeamMember(team.id, userId)}
      refresh={() => queryClient.invalidateQueries({ queryKey: ['teams', team.id, 'members'] })}
    />
  );
}
