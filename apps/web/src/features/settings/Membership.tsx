import { Drawer, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type UseQueryResult, useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { failureMessage } from './failure-message.ts';
import { type Member, MemberList } from './MemberList.tsx';
import { fullName } from './settings-api.ts';
import { UserPicker } from './UserPicker.tsx';

/**
 * The members of a workspace or a team: a picker that adds a person, and the list, each member
 * removable after a confirmation. Who the group is and how its API is called come from the caller.
 */
export function Membership({
  groupName,
  members,
  onPage,
  canManage,
  note,
  removeQuestion,
  addMember,
  removeMember,
  refresh,
}: {
  groupName: string;
  members: UseQueryResult<{ results: Member[]; pagination: { page: number; per: number; total: number } }>;
  onPage: (page: number) => void;
  canManage: boolean;
  /** Shown above the picker. */
  note?: ReactNode;
  removeQuestion: (member: Member) => string;
  addMember: (userId: number) => Promise<Member>;
  removeMember: (userId: number) => Promise<unknown>;
  /** Refetches whatever membership changes. */
  refresh: () => Promise<unknown>;
}) {
  const add = useMutation({
    mutationFn: addMember,
    onSuccess: (member) => {
      notifications.show({ color: 'teal', message: `${fullName(member)} joined ${groupName}.` });
      return refresh();
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'Could not add', message: failureMessage(error) }),
  });

  const remove = async (member: Member) => {
    const confirmed = await confirmDestructive({
      title: 'Remove member',
      message: removeQuestion(member),
      confirmLabel: 'Remove',
    });
    if (!confirmed) return;
    try {
      await removeMember(member.id);
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not remove', message: failureMessage(error) });
    }
  };

  const memberIds = new Set((members.data?.results ?? []).map((member) => member.id));
  return (
    <Stack>
      {canManage && (
        <>
          {note}
          <UserPicker label="Add a person" excludeIds={memberIds} adding={add.isPending} onAdd={add.mutate} />
        </>
      )}
      <MemberList query={members} onPage={onPage} onRemove={canManage ? remove : undefined} />
    </Stack>
  );
}

/** The side sheet in which the members of a workspace or a team are managed; closed while `group` is null. */
export function MembersDrawer<Group extends { name: string }>({
  group,
  onClose,
  children,
}: {
  group: Group | null;
  onClose: () => void;
  children: (group: Group) => ReactNode;
}) {
  return (
    <Drawer
      opened={group !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={group ? `Members of ${group.name}` : ''}
    >
      {group && children(group)}
    </Drawer>
  );
}
