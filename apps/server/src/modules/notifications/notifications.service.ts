import { escapeHtml } from '@letterset/core';
import { and, count, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { emails, type NotificationKind, notifications, users } from '../../db/schema.ts';
import { NotFoundError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { toUserReference } from '../users/users.serializers.ts';
import type { Notification } from './notifications.schemas.ts';

/** What telling people about an event needs: the database, the mailer, the web app's address, the log. */
export type NotificationServices = Pick<Services, 'database' | 'mailer' | 'config' | 'log'>;

/** An event on an email that some people should hear about. */
export interface EmailNotice {
  kind: NotificationKind;
  recipientIds: readonly number[];
  /** Who did it; never told about their own action. */
  actor: { id: number; firstName: string; lastName: string } | null;
  email: { id: number; organizationId: number; workspaceId: number; name: string };
  emailCommentId?: number;
  /** What happened, in one line, e.g. `Ada Lovelace asked you to review “Spring sale”`. */
  message: string;
  /** Words worth quoting in the mail: the comment, the reviewer's note. */
  quote?: string | null;
}

export function personName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}

/** Where the email opens in the web app. */
export function emailLink(appUrl: string, email: { id: number; workspaceId: number }): string {
  return `${appUrl}/workspaces/${email.workspaceId}/emails/${email.id}/edit`;
}

/**
 * Records each notice as an in-app notification for each of its recipients (of the email's
 * organization, not removed, not the actor), then mails those who have not turned its kind off.
 * Call it once the change is committed: a mail must never tell of something that was rolled back.
 * A mail that cannot be sent is logged; the change it tells of stands.
 */
export async function notify(services: NotificationServices, notices: readonly EmailNotice[]): Promise<void> {
  const wanted = notices.flatMap((notice) =>
    [...new Set(notice.recipientIds)]
      .filter((userId) => userId !== notice.actor?.id)
      .map((userId) => ({ notice, userId })),
  );
  if (wanted.length === 0) return;
  const organizationIds = [...new Set(notices.map((notice) => notice.email.organizationId))];
  const recipients = await services.database.db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      email: users.email,
      firstName: users.firstName,
      disabled: users.disabledEmailNotifications,
    })
    .from(users)
    .where(
      and(
        inArray(users.id, [...new Set(wanted.map(({ userId }) => userId))]),
        inArray(users.organizationId, organizationIds),
        isNull(users.deletedAt),
      ),
    );
  const recipientById = new Map(recipients.map((recipient) => [recipient.id, recipient]));
  const deliveries = wanted.flatMap(({ notice, userId }) => {
    const recipient = recipientById.get(userId);
    return recipient && recipient.organizationId === notice.email.organizationId
      ? [{ notice, recipient }]
      : [];
  });
  if (deliveries.length === 0) return;
  await services.database.db.insert(notifications).values(
    deliveries.map(({ notice, recipient }) => ({
      organizationId: notice.email.organizationId,
      userId: recipient.id,
      kind: notice.kind,
      actorId: notice.actor?.id ?? null,
      workspaceId: notice.email.workspaceId,
      emailId: notice.email.id,
      emailCommentId: notice.emailCommentId ?? null,
      message: notice.message,
    })),
  );
  const mails = deliveries.filter(({ notice, recipient }) => !recipient.disabled.includes(notice.kind));
  const sent = await Promise.allSettled(
    mails.map(({ notice, recipient }) =>
      services.mailer.send(noticeMail(services.config.appUrl, notice, recipient)),
    ),
  );
  sent.forEach((outcome, index) => {
    if (outcome.status === 'rejected') {
      services.log.warn(
        { err: outcome.reason, kind: mails[index]?.notice.kind, userId: mails[index]?.recipient.id },
        'notification mail not sent',
      );
    }
  });
}

function noticeMail(appUrl: string, notice: EmailNotice, recipient: { email: string; firstName: string }) {
  const link = emailLink(appUrl, notice.email);
  const quote = notice.quote?.trim();
  const footer = 'Choose which of these mails you get on your Profile page, under Email notifications.';
  return {
    to: recipient.email,
    subject: notice.message,
    text: [
      `Hi ${recipient.firstName},`,
      '',
      notice.message,
      ...(quote ? ['', ...quote.split('\n').map((line) => `> ${line}`)] : []),
      '',
      `Open the email: ${link}`,
      '',
      footer,
    ].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(recipient.firstName)},</p>`,
      `<p>${escapeHtml(notice.message)}</p>`,
      ...(quote
        ? [
            `<blockquote style="border-left:3px solid #ccc;margin:0;padding-left:12px">${escapeHtml(quote)}</blockquote>`,
          ]
        : []),
      `<p><a href="${escapeHtml(link)}">Open the email</a></p>`,
      `<p style="color:#666;font-size:12px">${escapeHtml(footer)}</p>`,
    ].join('\n'),
  };
}

const actors = alias(users, 'actors');

function ownNotifications(principal: Principal, ...conditions: (SQL | undefined)[]) {
  return and(
    eq(notifications.userId, principal.userId),
    eq(notifications.organizationId, principal.organizationId),
    ...conditions,
  );
}

/** Notifications as the API shows them, with who acted and on which email, newest first. */
function notificationRows(db: Database, where: SQL | undefined) {
  return db
    .select({ notification: notifications, actor: actors, email: { id: emails.id, name: emails.name } })
    .from(notifications)
    .leftJoin(actors, eq(actors.id, notifications.actorId))
    .leftJoin(emails, eq(emails.id, notifications.emailId))
    .where(where)
    .orderBy(desc(notifications.id))
    .$dynamic();
}

export async function listNotifications(
  db: Database,
  principal: Principal,
  query: { unread?: boolean; kind?: NotificationKind },
  page: PageRequest,
) {
  const where = ownNotifications(
    principal,
    query.unread ? isNull(notifications.readAt) : undefined,
    query.kind ? eq(notifications.kind, query.kind) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    notificationRows(db, where).limit(page.limit).offset(page.offset),
    db.select({ value: count() }).from(notifications).where(where),
  ]);
  return listBody(
    rows.map(({ notification, actor, email }) => toNotificationResponse(notification, actor, email)),
    total?.value ?? 0,
    page,
  );
}

function toNotificationResponse(
  notification: typeof notifications.$inferSelect,
  actor: typeof users.$inferSelect | null,
  email: { id: number; name: string } | null,
): Static<typeof Notification> {
  return {
    id: notification.id,
    kind: notification.kind,
    message: notification.message,
    actor: actor ? toUserReference(actor) : null,
    email:
      email && notification.workspaceId !== null
        ? { id: email.id, workspace_id: notification.workspaceId, name: email.name }
        : null,
    email_comment_id: notification.emailCommentId,
    read: notification.readAt !== null,
    read_at: notification.readAt,
    created_at: notification.createdAt,
  };
}

export async function unreadCount(db: Database, principal: Principal) {
  const [row] = await db
    .select({ value: count() })
    .from(notifications)
    .where(ownNotifications(principal, isNull(notifications.readAt)));
  return { unread_count: row?.value ?? 0 };
}

export async function markNotificationRead(db: Database, principal: Principal, id: number) {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(ownNotifications(principal, eq(notifications.id, id), isNull(notifications.readAt)));
  const [row] = await notificationRows(db, ownNotifications(principal, eq(notifications.id, id)));
  if (!row) throw new NotFoundError();
  return toNotificationResponse(row.notification, row.actor, row.email);
}

/** Marks every unread notification of the caller read (or those of one email). */
export async function markAllNotificationsRead(db: Database, principal: Principal, emailId?: number) {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      ownNotifications(
        principal,
        isNull(notifications.readAt),
        emailId === undefined ? undefined : eq(notifications.emailId, emailId),
      ),
    );
  return unreadCount(db, principal);
}
