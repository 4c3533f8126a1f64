import { Badge, Button, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { CollectionTable, useCollectionEditing, useConfirmedDelete } from '../../shared/CollectionPanel.tsx';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { failureMessage } from './failure-message.ts';
import { MemberRowActions } from './MemberRowActions.tsx';
import { MembersDrawer, Membership } from './Membership.tsx';
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
  const [workspaceId, setWorkspaceId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const editing = useCollectionEditing<Team>();
  const [members, setMembers] = useState<Team | null>(null);
  const workspaces = useQuery(allWorkspacesQuery);
  const teams = useQuery(teamsQuery(workspaceId, { page, per: perPage }));
  const workspaceName = (id: number) =>
    workspaces.data?.find((workspace) => workspace.id === id)?.name ?? '…';
  const remove = useConfirmedDelete<Team>({
    noun: 'team',
    nameOf: (team) => team.name,
    deleteItem: (team) => deleteTeam(team.id),
    queryKey: ['teams'],
    confirmTitle: () => 'Delete team',
    deleteMessage: (team) => `Delete the team “${team.name}”?`,
    confirmLabel: 'Delete',
    deletedMessage: (team) => `“${team.name}” was deleted.`,
    failureTitle: 'Could not delete the team',
    failureMessage,
  });

  return (
    <Stack>
      <PageHeader
        title="Teams"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Teams' }]}
        actions={can('create_teams') && <Button onClick={editing.openNew}>New team</Button>}
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
      <CollectionTable
        query={teams}
        onPage={setPage}
        minWidth={560}
        headers={['Team', 'Workspace']}
        cells={(team) => [
          <Badge key="team" color={teamColorHex[team.badge_color]} autoContrast size="lg">
            {team.name}
          </Badge>,
          workspaceName(team.workspace_id),
        ]}
        rowActions={(team) => (
          <MemberRowActions
            name={team.name}
            onMembers={() => setMembers(team)}
            onEdit={can('update_teams') ? () => editing.open(team) : undefined}
            onDelete={can('delete_teams') ? () => remove(team) : undefined}
          />
        )}
        empty={
          <EmptyState
            title="No teams yet"
            hint="Teams own projects; people see the projects of their teams. Create one before the first project."
            action={
              can('create_teams') && (
                <Button variant="light" onClick={editing.openNew}>
                  Create the first team
                </Button>
              )
            }
          />
        }
      />
      <Modal opened={editing.isOpen} onClose={editing.close} title={editing.isNew ? 'New team' : 'Edit team'}>
        {editing.isOpen && (
          <TeamForm
            team={editing.item}
            defaultWorkspaceId={workspaceId}
            onCancel={editing.close}
            onDone={(saved) => {
              editing.close();
              notifications.show({ color: 'teal', message: `“${saved.name}” was saved.` });
            }}
          />
        )}
      </Modal>
      <MembersDrawer group={members} onClose={() => setMembers(null)}>
        {(group) => <TeamMembers team={group} />}
      </MembersDrawer>
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
