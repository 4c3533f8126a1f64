import { Badge, Button, Drawer, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meQuery, useCan } from '../../app/session.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { failureMessage } from './failure-message.ts';
import { MemberRowActions } from './MemberRowActions.tsx';
import { Membership } from './Membership.tsx';
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
  const [editing, setEditing] = useState<Workspace | 'new' | null>(null);
  const [members, setMembers] = useState<Workspace | null>(null);
  const workspaces = useQuery(workspacesQuery({ page, per: perPage }));

  const remove = async (workspace: Workspace) => {
    const confirmed = await confirmDestructive({
      title: 'Delete workspace',
      message: `Delete “${workspace.name}”? Only a workspace without teams can be deleted.`,
      confirmLabel: 'Delete',
    });
    if (!confirmed) return;
    try {
      await deleteWorkspace(workspace.id);
      notifications.show({ color: 'teal', message: `“${workspace.name}” was deleted.` });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['workspaces'] }),
        queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
      ]);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not delete the workspace',
        message: failureMessage(error),
      });
    }
  };

  return (
    <Stack>
      <PageHeader
        title="Workspaces"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Workspaces' }]}
        actions={can('create_workspaces') && <Button onClick={() => setEditing('new')}>New workspace</Button>}
      />
      <QueryState
        query={workspaces}
        isEmpty={(data) => data.results.length === 0}
        empty={<Text>You are not a member of any workspace.</Text>}
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Joining</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((workspace) => (
                    <Table.Tr key={workspace.id}>
                      <Table.Td fw={500}>{workspace.name}</Table.Td>
                      <Table.Td>
                        {workspace.auto_join ? (
                          <Badge variant="light">Everyone joins</Badge>
                        ) : (
                          <Text size="sm" c="dimmed">
                            Members added by hand
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <MemberRowActions
                          name={workspace.name}
                          onMembers={() => setMembers(workspace)}
                          onEdit={can('update_workspaces') ? () => setEditing(workspace) : undefined}
                          onDelete={can('delete_workspaces') ? () => remove(workspace) : undefined}
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
        title={editing === 'new' ? 'New workspace' : 'Edit workspace'}
      >
        {editing !== null && (
          <WorkspaceForm
            workspace={editing === 'new' ? null : editing}
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
        {members && <WorkspaceMembers workspace={members} />}
      </Drawer>
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
