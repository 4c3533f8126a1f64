import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  ListNotificationsQuery,
  Notification,
  NotificationParams,
  UnreadCount,
} from './notifications.schemas.ts';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  unreadCount,
} from './notifications.service.ts';

const collection = '/api/v1/notifications';
const tags = ['Notifications'];

/** The caller's own notifications: each user sees only theirs. */
export const notificationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listNotifications',
        tags,
        summary: 'List your notifications',
        description:
          'Newest first: mentions, replies, review requests and decisions, emails ready to publish. ' +
          'unread=true lists only those not read yet.',
        querystring: ListNotificationsQuery,
        response: { 200: ListResponse(ref(Notification)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) =>
      listNotifications(
        app.services.database.db,
        principalOf(request),
        request.query,
        pageRequest(request.query),
      ),
  );

  app.get(
    `${collection}/unread_count`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'countUnreadNotifications',
        tags,
        summary: 'How many of your notifications are unread',
        response: { 200: ref(UnreadCount), ...errorResponses(401, 403) },
      },
    },
    async (request) => unreadCount(app.services.database.db, principalOf(request)),
  );

  app.post(
    `${collection}/:id/mark_read`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'markNotificationRead',
        tags,
        summary: 'Mark one of your notifications read',
        params: NotificationParams,
        response: { 200: ref(Notification), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      markNotificationRead(app.services.database.db, principalOf(request), request.params.id),
  );

  app.post(
    `${collection}/mark_all_read`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'markAllNotificationsRead',
        tags,
        summary: 'Mark all your notifications read',
        response: { 200: ref(UnreadCount), ...errorResponses(401, 403) },
      },
    },
    async (request) => markAllNotificationsRead(app.services.database.db, principalOf(request)),
  );
};
