import {
  ActionIcon,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { QueryState } from '../../shared/QueryState.tsx';
import { relativeTime } from '../../shared/relative-time.ts';
import {
  markAllNotificationsRead,
  markNotificationRead,
  type Notification,
  notificationTarget,
  recentNotificationsQuery,
  unreadCountQuery,
} from './notifications-api.ts';

/** The header's bell: how many notifications are unread, and the latest ones a click away. */
export function NotificationBell() {
  const [opened, setOpened] = useState(false);
  const unread = useQuery(unreadCountQuery).data?.unread_count ?? 0;
  return (
    // Focus moves into the open list, so Escape closes it from there and focus returns to the bell.
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={360}
      shadow="md"
      withinPortal
      trapFocus
      returnFocus
    >
      {/* The popover's target is the button itself: the target gets aria-haspopup, which a div may not carry. */}
      <Indicator
        label={unread > 99 ? '99+' : unread}
        size={16}
        disabled={unread === 0}
        offset={4}
        color="red"
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={unread === 0 ? 'Notifications' : `Notifications: ${unread} unread`}
            onClick={() => setOpened((open) => !open)}
          >
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p="xs">
        {opened && <NotificationList unread={unread} onOpened={() => setOpened(false)} />}
      </Popover.Dropdown>
    </Popover>
  );
}

function NotificationList({ unread, onOpened }: { unread: number; onOpened: () => void }) {
  const queryClient = useQueryClient();
  const query = useQuery(recentNotificationsQuery({ per: 15 }));
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={600} size="sm">
          Notifications
        </Text>
        <Button
          size="compact-xs"
          variant="subtle"
          disabled={unread === 0}
          onClick={() => markAllNotificationsRead(queryClient)}
        >
          Mark all read
        </Button>
      </Group>
      <QueryState
        query={query}
        skeletonRows={3}
        isEmpty={(page) => page.results.length === 0}
        empty={
          <Text size="sm" c="dimmed">
            Nothing yet. Mentions, review requests and decisions on your emails show here.
          </Text>
        }
      >
        {(page) => (
          <ScrollArea.Autosize mah={420}>
            <Stack gap={2} role="list" aria-label="Notifications">
              {page.results.map((notification) => (
                <NotificationRow key={notification.id} notification={notification} onOpened={onOpened} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </QueryState>
    </Stack>
  );
}

export function NotificationRow({
  notification,
  onOpened,
}: {
  notification: Notification;
  onOpened?: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const target = notificationTarget(notification);
  const open = async () => {
    if (!notification.read) await markNotificationRead(queryClient, notification.id);
    onOpened?.();
    if (target) await navigate({ to: target });
  };
  return (
    <UnstyledButton
      role="listitem"
      onClick={open}
      p="xs"
      style={{
        borderRadius: 'var(--mantine-radius-sm)',
        background: notification.read ? undefined : 'var(--mantine-color-blue-light)',
      }}
      aria-label={`${notification.read ? '' : 'Unread: '}${notification.message}`}
    >
      <Text size="sm" fw={notification.read ? 400 : 600}>
        {notification.message}
      </Text>
      <Text size="xs" c="dimmed">
        {relativeTime(String(notification.created_at))}
      </Text>
    </UnstyledButton>
  );
}
