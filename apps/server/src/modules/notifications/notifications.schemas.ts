import { Type } from 'typebox';
import { notificationKinds } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { IdParams, ref, Timestamp } from '../../http/schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

export const Notification = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Enum([...notificationKinds]),
    message: Type.String({ description: 'What happened, in one line' }),
    actor: Type.Union([ref(UserReference), Type.Null()], { description: 'Who did it' }),
    email: Type.Union([
      Type.Object({ id: Type.Integer(), workspace_id: Type.Integer(), name: Type.String() }),
      Type.Null(),
    ]),
    email_comment_id: Type.Union([Type.Integer(), Type.Null()]),
    read: Type.Boolean(),
    read_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
  },
  { $id: 'Notification', description: 'Something that happened to you in the app, newest first in lists' },
);

export const ListNotificationsQuery = Type.Object({
  ...PaginationQuery.properties,
  unread: Type.Optional(Type.Boolean({ description: 'true: only the notifications not read yet' })),
  kind: Type.Optional(Type.Enum([...notificationKinds], { description: 'Only notifications of this kind' })),
});

export const UnreadCount = Type.Object({ unread_count: Type.Integer() }, { $id: 'NotificationUnreadCount' });

export const NotificationParams = IdParams;
