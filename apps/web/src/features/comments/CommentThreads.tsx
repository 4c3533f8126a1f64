import { ActionIcon, Avatar, Badge, Button, Group, Menu, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconDots, IconMapPin, IconRobot } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { relativeTime } from '../../shared/relative-time.ts';
import { CommentBody } from './CommentBody.tsx';
import { CommentComposer } from './CommentComposer.tsx';
import { authorName, type CommentCalls, type EmailComment } from './comments-api.ts';
import type { CommentThread } from './threads.ts';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase())
    .join('');
}

function CommentItem({
  comment,
  mine,
  workspaceId,
  calls,
}: {
  comment: EmailComment;
  mine: boolean;
  workspaceId: number;
  calls: CommentCalls;
}) {
  const [editing, setEditing] = useState(false);
  const name = authorName(comment);
  const byAi = comment.author_type === 'AiReviewer';
  const picture =
    comment.author && 'profile_image_url' in comment.author ? comment.author.profile_image_url : null;

  async function remove() {
    const confirmed = await confirmDestructive({
      title: comment.parent_id === null ? 'Delete this thread?' : 'Delete this reply?',
      message:
        comment.parent_id === null
          ? 'The comment and every reply to it are deleted for everyone.'
          : 'The reply is deleted for everyone.',
      confirmLabel: 'Delete',
    });
    if (confirmed) await calls.remove(comment.id);
  }

  return (
    <Stack gap={4} data-comment-id={comment.id}>
      <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Avatar src={picture} size={26} radius="xl" color={byAi ? 'violet' : 'blue'} alt={name}>
            {byAi ? <IconRobot size={15} /> : initials(name)}
          </Avatar>
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} truncate>
              {name}
              {byAi && (
                <Badge ml={6} size="xs" variant="light" color="violet" title="Written by an AI reviewer">
                  AI
                </Badge>
              )}
            </Text>
            <Text size="xs" c="dimmed" title={new Date(comment.created_at).toLocaleString()}>
              {relativeTime(comment.created_at)}
            </Text>
          </div>
        </Group>
        {mine && !editing && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Actions on ${name}’s comment`}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setEditing(true)}>Edit</Menu.Item>
              <Menu.Item color="red" onClick={() => void remove()}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {editing ? (
        <CommentComposer
          workspaceId={workspaceId}
          initialBody={comment.body}
          submitLabel="Save"
          autoFocus
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            await calls.update(comment.id, body);
            setEditing(false);
          }}
        />
      ) : (
        <CommentBody body={comment.body} />
      )}
    </Stack>
  );
}

/**
 * Comment threads: each first comment with its replies, a reply box, resolve or reopen, and where
 * it is pinned (its marker's number, or that its component was removed). Selecting a thread
 * highlights its marker on the preview.
 */
export function CommentThreads({
  threads,
  pinNumbers,
  selectedThreadId,
  onSelectThread,
  myUserId,
  workspaceId,
  calls,
}: {
  threads: readonly CommentThread[];
  pinNumbers: ReadonlyMap<number, number>;
  selectedThreadId: number | null;
  onSelectThread: (threadId: number | null) => void;
  myUserId: number;
  workspaceId: number;
  calls: CommentCalls;
}) {
  return (
    <Stack gap="sm">
      {threads.map((thread) => (
        <ThreadCard
          key={thread.first.id}
          thread={thread}
          pinNumber={pinNumbers.get(thread.first.id) ?? null}
          selected={thread.first.id === selectedThreadId}
          onSelect={() => onSelectThread(thread.first.id === selectedThreadId ? null : thread.first.id)}
          myUserId={myUserId}
          workspaceId={workspaceId}
          calls={calls}
        />
      ))}
    </Stack>
  );
}

function ThreadCard({
  thread,
  pinNumber,
  selected,
  onSelect,
  myUserId,
  workspaceId,
  calls,
}: {
  thread: CommentThread;
  pinNumber: number | null;
  selected: boolean;
  onSelect: () => void;
  myUserId: number;
  workspaceId: number;
  calls: CommentCalls;
}) {
  const [replying, setReplying] = useState(false);
  const [toggling, setToggling] = useState(false);
  const card = useRef<HTMLDivElement>(null);
  const { first, replies } = thread;
  const mine = (comment: EmailComment) =>
    comment.author_type === 'User' && comment.author !== null && comment.author.id === myUserId;

  useEffect(() => {
    if (selected) card.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [selected]);

  async function toggle() {
    setToggling(true);
    try {
      await calls.toggleResolution(first.id);
    } finally {
      setToggling(false);
    }
  }

  return (
    <Paper
      ref={card}
      withBorder
      p="xs"
      data-thread-id={first.id}
      aria-label={`Thread by ${authorName(first)}`}
      aria-current={selected ? 'true' : undefined}
      style={{
        borderColor: selected ? 'var(--mantine-color-blue-5)' : undefined,
        boxShadow: selected ? '0 0 0 1px var(--mantine-color-blue-5)' : undefined,
        opacity: first.resolved ? 0.75 : 1,
      }}
    >
      <Stack gap="xs">
        {(first.pin_data || first.resolved) && (
          <Group gap={6}>
            {first.pin_data && first.pin_detached && (
              <Text size="xs" c="orange.8">
                Pinned to a component that was removed
              </Text>
            )}
            {first.pin_data && !first.pin_detached && pinNumber !== null && (
              <Tooltip label="Show its pin on the preview">
                <Badge
                  component="button"
                  type="button"
                  size="sm"
                  variant={selected ? 'filled' : 'light'}
                  leftSection={<IconMapPin size={12} />}
                  style={{ cursor: 'pointer' }}
                  onClick={onSelect}
                  aria-label={`Pin ${pinNumber}`}
                >
                  {pinNumber}
                </Badge>
              </Tooltip>
            )}
            {first.resolved && (
              <Badge size="sm" color="green" variant="light">
                Resolved{first.resolver ? ` by ${first.resolver.first_name} ${first.resolver.last_name}` : ''}
              </Badge>
            )}
          </Group>
        )}
        <CommentItem comment={first} mine={mine(first)} workspaceId={workspaceId} calls={calls} />
        {replies.length > 0 && (
          <Stack gap="xs" pl="sm" style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }}>
            {replies.map((reply) => (
              <CommentItem
                key={reply.id}
                comment={reply}
                mine={mine(reply)}
                workspaceId={workspaceId}
                calls={calls}
              />
            ))}
          </Stack>
        )}
        {replying ? (
          <CommentComposer
            workspaceId={workspaceId}
            placeholder="Reply… Type @ to mention someone"
            submitLabel="Reply"
            autoFocus
            onCancel={() => setReplying(false)}
            onSubmit={async (body) => {
              await calls.create({ body, parent_id: first.id });
              setReplying(false);
            }}
          />
        ) : (
          <Group gap="xs">
            <Button size="compact-xs" variant="subtle" onClick={() => setReplying(true)}>
              Reply
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              color="gray"
              loading={toggling}
              onClick={() => void toggle()}
            >
              {first.resolved ? 'Reopen' : 'Resolve'}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
