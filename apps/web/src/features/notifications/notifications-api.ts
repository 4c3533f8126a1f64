import type { components } from '@letterset/api-client';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type Notification = components['schemas']['Notification'];
export type NotificationKind = Notification['kind'];

export const notificationKeys = {
  all: ['notifications'] as const,
};

/** How often the bell asks for news while the page is open (it also asks when the window gets focus). */
const unreadPollMs = 20_000;

export const unreadCountQuery = queryOptions({
  queryKey: [...notificationKeys.all, 'unread-count'],
  queryFn: () => unwrap(api.GET('/api/v1/notifications/unread_count')),
  refetchInterval: unreadPollMs,
});

export const recentNotificationsQuery = (options: { kind?: NotificationKind; per?: number } = {}) =>
  queryOptions({
    queryKey: [...notificationKeys.all, 'recent', options.kind ?? 'any', options.per ?? 10],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/notifications', {
          params: { query: { per: options.per ?? 10, ...(options.kind ? { kind: options.kind } : {}) } },
        }),
      ),
  });

export async function markNotificationRead(queryClient: QueryClient, id: number) {
  await unwrap(api.POST('/api/v1/notifications/{id}/mark_read', { params: { path: { id } } }));
  await queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}

export async function markAllNotificationsRead(queryClient: QueryClient) {
  await unwrap(api.POST('/api/v1/notifications/mark_all_read'));
  await queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}

/** Where a notification leads: the email it is about, in the editor. */
export function notificationTarget(notification: Notification): string | null {
  const { email } = notification;
  return email ? `/workspaces/${email.workspace_id}/emails/${email.id}/edit` : null;
}
