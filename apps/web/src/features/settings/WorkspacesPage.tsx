import { Badge, Button, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meQuery, useCan } from '../../app/session.ts';
import { CollectionTable, useCollectionEditing, useConfirmedDelete } from '../../shared/CollectionPanel.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { failureMessage } from './failure-message.ts';
import { MemberRowActions } from './MemberRowActions.tsx';
import { MembersDrawer, Membership } from './Membership.tsx';
import {
  addWorkspaceMember,
  deleteWorkspace,
  fullName,
  removeWorkspaceMember,
  type Workspace,
  workspaceMembersQuery,
  workspacesQuery,
} from './settings-api.ts';
import { WorkspaceForm } from './WorkspaceForm.tsx';

const perPage = 20;

/** The organization's workspaces: create, rename, delete, and who is in each. */
export function WorkspacesPage() {
  const can = useCan();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const editing = useCollectionEditing<Workspace>();
  const [members, setMembers] = useState<Workspace | null>(null);
  const workspaces = useQuery(workspacesQuery({ page, per: perPage }));
  const remove = useConfirmedDelete<Workspace>({
    noun: 'workspace',
    nameOf: (workspace) => workspace.name,
    deleteItem: async (workspace) => {
      await deleteWorkspace(workspace.id);
      // The workspace switcher lists the user's workspaces from `me`.
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
    queryKey: ['workspaces'],
    confirmTitle: () => 'Delete workspace',
    deleteMessage: (workspace) =>
      `Delete “${workspace.name}”? Only a workspace without teams can be deleted.`,
    confirmLabel: 'Delete',
    deletedMessage: (workspace) => `“${workspace.name}” was deleted.`,
    failureTitle: 'Could not delete the workspace',
    failureMessage,
  });

  return (
    <Stack>
      <PageHeader
        title="Workspaces"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Workspaces' }]}
        actions={can('create_workspaces') && <Button onClick={editing.openNew}>New workspace</Button>}
      />
      <CollectionTable
        query={workspaces}
        onPage={setPage}
        minWidth={560}
        headers={['Name', 'Joining']}
        cells={(workspace) => [
          <Text key="name" span inherit fw={500}>
            {workspace.name}
          </Text>,
          workspace.auto_join ? (
            <Badge key="joining" variant="light">
              Everyone joins
            </Badge>
          ) : (
            <Text key="joining" size="sm" c="dimmed">
              Members added by hand
            </Text>
          ),
        ]}
        rowActions={(workspace) => (
          <MemberRowActions
            name={workspace.name}
            onMembers={() => setMembers(workspace)}
            onEdit={can('update_workspaces') ? () => editing.open(workspace) : undefined}
            onDelete={can('delete_workspaces') ? () => remove(workspace) : undefined}
          />
        )}
        empty={<Text>You are not a member of any workspace.</Text>}
      />
      <Modal
        opened={editing.isOpen}
        onClose={editing.close}
        title={editing.isNew ? 'New workspace' : 'Edit workspace'}
      >
        {editing.isOpen && (
          <WorkspaceForm
            workspace={editing.item}
            onCancel={editing.close}
            onDone={(saved) => {
              editing.close();
              notifications.show({ color: 'teal', message: `“${saved.name}” was saved.` });
            }}
          />
        )}
      </Modal>
      <MembersDrawer group={members} onClose={() => setMembers(null)}>
        {(group) => <WorkspaceMembers workspace={group} />}
      </MembersDrawer>
    </Stack>
  );
}

function WorkspaceMembers({ workspace }: { workspace: Workspace }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const members = useQuery(workspaceMembersQuery(workspace.id, { page, per: perPage }));
  return (
    <Membership
      groupName={workspace.name}
      members={members}
      onPage={setPage}
      canManage={can('manage_workspace_access')}
      removeQuestion={(member) => `Remove ${fullName(member)} from ${workspace.name} and its teams?`}
      addMember={(userId) => addWorkspaceMember(workspace.id, userId)}
      removeMember={(userId) => removeWorkspaceMember(workspace.id, userId)}
      refresh={() =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: ['workspaces', workspace.id, 'members'] }),
          queryClient.invalidateQueries({ queryKey: ['users'] }),
          queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
        ])
      }
    />
  );
}
