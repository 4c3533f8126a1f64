import { canGrant } from '@letterset/core/permissions';
import { Alert, Badge, Button, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan, useMe } from '../../app/session.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { SearchInput } from '../../shared/SearchInput.tsx';
import { failureMessage } from './failure-message.ts';
import { InviteUserModal } from './InviteUserModal.tsx';
import { roleChoices } from './role-choices.ts';
import {
  allRolesQuery,
  changeUserRole,
  formatDateTime,
  fullName,
  type Role,
  removeUser,
  resendInvitation,
  type User,
  usersQuery,
} from './settings-api.ts';

const perPage = 20;

/** The organization's people: invite, change roles, remove. */
export function UsersPage() {
  const can = useCan();
  const me = useMe();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [inviting, { open: openInvite, close: closeInvite }] = useDisclosure();
  const [invited, setInvited] = useState<User | null>(null);
  const users = useQuery(usersQuery({ page, per: perPage, search }));
  const roles = useQuery(allRolesQuery);

  return (
    <Stack>
      <PageHeader
        title="Users"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Users' }]}
        actions={can('create_users') && <Button onClick={openInvite}>Invite a person</Button>}
      />
      {invited && (
        <Alert color="teal" title="Invitation sent" withCloseButton onClose={() => setInvited(null)}>
          {fullName(invited)} ({invited.email}) received an email with a link to set a password. The link
          works for 7 days.
        </Alert>
      )}
      <SearchInput
        value={search}
        label="Search users"
        placeholder="Search by name or email"
        onSearch={(term) => {
          setSearch(term);
          setPage(1);
        }}
      />
      <QueryState
        query={users}
        isEmpty={(data) => data.results.length === 0}
        empty={
          search ? (
            <Text>Nobody matches “{search}”.</Text>
          ) : (
            <EmptyState
              title="Nobody is here yet"
              hint="Invite the people you write and review emails with; each gets a link to set a password."
              action={
                can('create_users') && (
                  <Button variant="light" onClick={openInvite}>
                    Invite someone
                  </Button>
                )
              }
            />
          )
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((user) => (
                    <UserRow key={user.id} user={user} roles={roles.data ?? []} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      <InviteUserModal
        heldKeys={me.permissions}
        opened={inviting}
        onClose={closeInvite}
        onInvited={(user) => {
          closeInvite();
          setInvited(user);
        }}
      />
    </Stack>
  );
}

function UserRow({ user, roles }: { user: User; roles: readonly Role[] }) {
  const me = useMe();
  const can = useCan();
  const queryClient = useQueryClient();
  const isMe = user.id === me.user.id;
  const currentRole = roles.find((role) => role.id === user.role_id);
  const roleName = currentRole?.name ?? user.role_name;
  // Nobody acts on someone holding keys they lack, nor gives a role beyond their own keys.
  const withinReach = currentRole !== undefined && canGrant(me.permissions, currentRole.role_permissions);
  const [roleProblem, setRoleProblem] = useState<string | null>(null);

  const changeRole = useMutation({
    mutationFn: (roleId: number) => changeUserRole(user.id, roleId),
    onSuccess: (updated) => {
      setRoleProblem(null);
      queryClient.invalidateQueries({ queryKey: ['users'] });
      const name = roles.find((role) => role.id === updated.role_id)?.name;
      notifications.show({
        color: 'teal',
        message: `${fullName(user)} is now ${name ?? 'in their new role'}.`,
      });
    },
    onError: (error) => setRoleProblem(failureMessage(error)),
  });

  const resend = useMutation({
    mutationFn: () => resendInvitation(user.id),
    onSuccess: async () => {
      notifications.show({
        color: 'teal',
        message: `${fullName(user)} received a new invitation link at ${user.email}. It works for 7 days.`,
      });
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: 'The invitation was not sent',
        message: failureMessage(error),
      }),
  });

  const remove = async () => {
    const confirmed = await confirmDestructive({
      title: 'Remove user',
      message: `Remove ${fullName(user)} from the organization? They can no longer sign in or use their API keys. What they wrote keeps their name.`,
      confirmLabel: 'Remove',
    });
    if (!confirmed) return;
    try {
      await removeUser(user.id);
      notifications.show({ color: 'teal', message: `${fullName(user)} was removed.` });
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not remove the user',
        message: failureMessage(error),
      });
    }
  };

  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {fullName(user)} {isMe && <Badge variant="light">You</Badge>}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{user.email}</Text>
      </Table.Td>
      <Table.Td>
        {can('update_users') && !isMe && withinReach ? (
          <Select
            aria-label={`Role of ${fullName(user)}`}
            size="xs"
            w={200}
            allowDeselect={false}
            disabled={changeRole.isPending || roles.length === 0}
            value={String(user.role_id)}
            data={roleChoices(roles, me.permissions)}
            error={roleProblem}
            onChange={(value) => value && changeRole.mutate(Number(value))}
          />
        ) : (
          <Text size="sm">{roleName}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <InvitationBadge user={user} />
      </Table.Td>
      <Table.Td ta="right">
        {can('create_users') && withinReach && user.invitation_state !== 'active' && (
          <Button
            size="xs"
            variant="subtle"
            loading={resend.isPending}
            onClick={() => resend.mutate()}
            aria-label={`Send ${fullName(user)} a new invitation`}
          >
            {user.invitation_state === 'invitation_expired' ? 'Send a new invitation' : 'Resend invitation'}
          </Button>
        )}
        {can('delete_users') && !isMe && withinReach && (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={remove}
            aria-label={`Remove ${fullName(user)}`}
          >
            Remove
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Whether the person can sign in yet: invited people show until when their link works. */
export function InvitationBadge({
  user,
}: {
  user: Pick<User, 'invitation_state' | 'invitation_expires_at'>;
}) {
  if (user.invitation_state === 'active') {
    return (
      <Badge color="teal" variant="light">
        Active
      </Badge>
    );
  }
  if (user.invitation_state === 'invitation_expired') {
    return (
      <Badge color="red" variant="light" title="The invitation link ran out before it was used">
        Invitation expired
      </Badge>
    );
  }
  return (
    <Badge
      color="yellow"
      variant="light"
      title={
        user.invitation_expires_at
          ? `The link works until ${formatDateTime(user.invitation_expires_at)}`
          : undefined
      }
    >
      Invited (pending)
    </Badge>
  );
}
