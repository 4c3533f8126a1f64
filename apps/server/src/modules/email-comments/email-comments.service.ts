import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { aiReviewers, emailComments, type StoredPinData, users } from '../../db/schema.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { FieldErrors } from '../../http/validation-messages.ts';
import { usersWhoCanSee } from '../emails/email-audience.ts';
import { announceEmailEvent } from '../emails/email-events.ts';
import { contentOf, type EmailRow } from '../emails/emails.serializers.ts';
import {
  type EmailNotice,
  type NotificationServices,
  notify,
  personName,
} from '../notifications/notifications.service.ts';
import { toUserReference, userReferenceColumns } from '../users/users.serializers.ts';
import {
  type CreateEmailCommentBody,
  commentBodyMaxLength,
  type EmailComment,
  type ListEmailCommentsQuery,
  type UpdateEmailCommentBody,
} from './email-comments.schemas.ts';
import { bodyAsText, mentionTokens } from './mentions.ts';

type CommentRow = typeof emailComments.$inferSelect;
type CommentResponse = Static<typeof EmailComment>;

/** Comments of one email, whatever the caller passes: the email is always found first, visibly. */
function ofEmail(email: EmailRow, ...conditions: (SQL | undefined)[]) {
  return and(
    eq(emailComments.organizationId, email.organizationId),
    eq(emailComments.workspaceId, email.workspaceId),
    eq(emailComments.emailId, email.id),
    ...conditions,
  );
}

/**
 * One locale's comments, first comments and replies together, oldest first (by id): a client
 * groups replies under their `parent_id`. `resolved` filters whole threads (each comment carries
 * its thread's state).
 */
export async function listEmailComments(
  db: Database,
  email: EmailRow,
  query: Static<typeof ListEmailCommentsQuery>,
  page: PageRequest,
) {
  const where = ofEmail(
    email,
    eq(emailComments.locale, query.locale),
    query.resolved === undefined ? undefined : eq(emailComments.resolved, query.resolved),
  );
  // One query for the page and the total: PGlite answers one query at a time.
  const rows = await db
    .select({ comment: emailComments, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(emailComments)
    .where(where)
    .orderBy(asc(emailComments.id))
    .limit(page.limit)
    .offset(page.offset);
  const total =
    rows[0]?.total ??
    (page.offset === 0
      ? 0
      : ((await db.select({ value: count() }).from(emailComments).where(where))[0]?.value ?? 0));
  const comments = rows.map((row) => row.comment);
  return listBody(await toCommentResponses(db, email, comments), total, page);
}

export async function createEmailComment(
  services: NotificationServices,
  principal: Principal,
  email: EmailRow,
  input: Static<typeof CreateEmailCommentBody>,
): Promise<CommentResponse> {
  const db = services.database.db;
  const errors: FieldErrors = {};
  const body = input.body.trim();
  addErrors(errors, 'body', bodyProblems(body));
  if (!email.locales.includes(input.locale)) addErrors(errors, 'locale', ['is not a locale of this email']);

  let parent: CommentRow | undefined;
  if (input.parent_id != null) {
    [parent] = await db
      .select()
      .from(emailComments)
      .where(ofEmail(email, eq(emailComments.id, input.parent_id)));
    if (!parent || parent.locale !== input.locale) {
      addErrors(errors, 'parent_id', ['is not a comment of this email in this locale']);
    } else if (parent.parentId !== null) {
      addErrors(errors, 'parent_id', ['is a reply: reply to the first comment of its thread']);
    }
    if (input.pin_data) {
      addErrors(errors, 'pin_data', [
        'cannot be set on a reply: the first comment of a thread holds its pin',
      ]);
    }
  }
  const pin = input.pin_data ?? null;
  if (pin?.component_instance_id && !instanceIdsOf(email).has(pin.component_instance_id)) {
    addErrors(errors, 'pin_data.component_instance_id', ['is not a component instance of this email']);
  }
  const mentionedIds = await checkMentions(db, email, body, errors);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emailComments)
      .values({
        organizationId: email.organizationId,
        workspaceId: email.workspaceId,
        emailId: email.id,
        locale: input.locale,
        authorType: 'User',
        authorUserId: principal.userId,
        parentId: parent?.id ?? null,
        pinData: pin && {
          id: randomUUID(),
          component_instance_id: pin.component_instance_id,
          branch_key: pin.branch_key ?? null,
          coordinates: pin.coordinates,
        },
        body,
        mentionedUserIds: mentionedIds,
        // A reply joins its thread as it stands: resolved threads stay resolved until reopened.
        resolved: parent?.resolved ?? false,
        resolverId: parent?.resolverId ?? null,
      })
      .returning();
    if (!row) throw new Error('comment insert returned nothing');
    await announceEmailEvent(tx, { type: 'comments_changed', email_id: email.id, locale: input.locale });
    return row;
  });

  const actor = await actorOf(db, principal);
  const notices: EmailNotice[] = [];
  if (mentionedIds.length > 0) notices.push(mentionNotice(actor, email, created, mentionedIds));
  if (parent) {
    const participants = await threadParticipants(db, email, parent, created.id);
    const told = new Set(mentionedIds);
    notices.push({
      ...noticeBase(actor, email, created),
      kind: 'reply_in_comment_thread',
      recipientIds: participants.filter((id) => !told.has(id)),
      message: `${personName(actor)} replied to a comment thread on “${email.name}”`,
    });
  }
  await notify(services, notices);

  const [response] = await toCommentResponses(db, email, [created]);
  return response as CommentResponse;
}

/** Only the author edits a comment; people it mentions for the first time are told. */
export async function updateEmailComment(
  services: NotificationServices,
  principal: Principal,
  email: EmailRow,
  id: number,
  input: Static<typeof UpdateEmailCommentBody>,
): Promise<CommentResponse> {
  const db = services.database.db;
  const comment = await findComment(db, email, id);
  assertAuthor(principal, comment, 'edit');
  const errors: FieldErrors = {};
  const body = input.body.trim();
  addErrors(errors, 'body', bodyProblems(body));
  const mentionedIds = await checkMentions(db, email, body, errors);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(emailComments)
      .set({ body, mentionedUserIds: mentionedIds })
      .where(ofEmail(email, eq(emailComments.id, id)))
      .returning();
    if (!row) throw new NotFoundError();
    await announceEmailEvent(tx, { type: 'comments_changed', email_id: email.id, locale: row.locale });
    return row;
  });

  const alreadyTold = new Set(comment.mentionedUserIds);
  const newlyMentioned = mentionedIds.filter((userId) => !alreadyTold.has(userId));
  if (newlyMentioned.length > 0) {
    const actor = await actorOf(db, principal);
    await notify(services, [mentionNotice(actor, email, updated, newlyMentioned)]);
  }
  const [response] = await toCommentResponses(db, email, [updated]);
  return response as CommentResponse;
}

/** Only the author deletes a comment; deleting a thread's first comment deletes its replies. */
export async function deleteEmailComment(
  db: Database,
  principal: Principal,
  email: EmailRow,
  id: number,
): Promise<void> {
  const comment = await findComment(db, email, id);
  assertAuthor(principal, comment, 'delete');
  await db.transaction(async (tx) => {
    await tx
      .delete(emailComments)
      .where(ofEmail(email, or(eq(emailComments.id, id), eq(emailComments.parentId, id))));
    await announceEmailEvent(tx, { type: 'comments_changed', email_id: email.id, locale: comment.locale });
  });
}

/** Resolves an open thread or reopens a resolved one; anyone who may comment may. */
export async function toggleEmailCommentResolution(
  db: Database,
  principal: Principal,
  email: EmailRow,
  id: number,
): Promise<CommentResponse> {
  const comment = await findComment(db, email, id);
  if (comment.parentId !== null) {
    throw ValidationError.field('id', 'is a reply: resolve or reopen the first comment of its thread');
  }
  const resolved = !comment.resolved;
  const first = await db.transaction(async (tx) => {
    const rows = await tx
      .update(emailComments)
      .set({ resolved, resolverId: resolved ? principal.userId : null })
      .where(ofEmail(email, or(eq(emailComments.id, id), eq(emailComments.parentId, id))))
      .returning();
    await announceEmailEvent(tx, { type: 'comments_changed', email_id: email.id, locale: comment.locale });
    return rows.find((row) => row.id === id);
  });
  if (!first) throw new NotFoundError();
  const [response] = await toCommentResponses(db, email, [first]);
  return response as CommentResponse;
}

async function findComment(db: Database, email: EmailRow, id: number): Promise<CommentRow> {
  const [comment] = await db
    .select()
    .from(emailComments)
    .where(ofEmail(email, eq(emailComments.id, id)));
  if (!comment) throw new NotFoundError();
  return comment;
}

function assertAuthor(principal: Principal, comment: CommentRow, action: 'edit' | 'delete'): void {
  if (comment.authorType !== 'User' || comment.authorUserId !== principal.userId) {
    throw new ForbiddenError(`Only the author of a comment can ${action} it`);
  }
}

function addErrors(errors: FieldErrors, field: string, messages: string[]): void {
  if (messages.length > 0) errors[field] = [...(errors[field] ?? []), ...messages];
}

function bodyProblems(body: string): string[] {
  if (body.length === 0) return ["can't be blank"];
  if (body.length > commentBodyMaxLength) {
    return [`must be at most ${commentBodyMaxLength} characters`];
  }
  return [];
}

/** Every instance id of the email's content, the container's included. */
function instanceIdsOf(email: EmailRow): Set<string> {
  const content = contentOf(email);
  const instances = [content.container_component_instance, ...(content.component_instances ?? [])];
  return new Set(instances.flatMap((instance) => (instance?.id ? [instance.id] : [])));
}

/**
 * The ids the body mentions, each once, in order. A token naming someone who cannot see the
 * email is refused under `body`, the token quoted.
 */
async function checkMentions(
  db: Database,
  email: EmailRow,
  body: string,
  errors: FieldErrors,
): Promise<number[]> {
  const tokens = mentionTokens(body);
  if (tokens.length === 0) return [];
  const ids = [...new Set(tokens.map((token) => token.userId))];
  const seeing = new Set((await usersWhoCanSee(db, email, { userIds: ids })).map((user) => user.id));
  const refused = [
    ...new Set(tokens.filter((token) => !seeing.has(token.userId)).map((token) => token.token)),
  ];
  addErrors(
    errors,
    'body',
    refused.map((token) => `mentions ${token}, who is not a user that can see this email`),
  );
  return ids.filter((id) => seeing.has(id));
}

type Actor = { id: number; firstName: string; lastName: string };

async function actorOf(db: Database, principal: Principal): Promise<Actor> {
  const [actor] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, principal.userId));
  if (!actor) throw new Error(`the signed-in user ${principal.userId} is missing`);
  return actor;
}

function noticeBase(actor: Actor, email: EmailRow, comment: CommentRow) {
  return {
    actor,
    email: {
      id: email.id,
      organizationId: email.organizationId,
      workspaceId: email.workspaceId,
      name: email.name,
    },
    emailCommentId: comment.id,
    quote: bodyAsText(comment.body),
  };
}

function mentionNotice(
  actor: Actor,
  email: EmailRow,
  comment: CommentRow,
  recipientIds: number[],
): EmailNotice {
  return {
    ...noticeBase(actor, email, comment),
    kind: 'mentioned_in_comment',
    recipientIds,
    message: `${personName(actor)} mentioned you in a comment on “${email.name}”`,
  };
}

/** The people who wrote in a thread before `beforeId`: its first comment's author and earlier repliers. */
async function threadParticipants(
  db: Database,
  email: EmailRow,
  first: CommentRow,
  beforeId: number,
): Promise<number[]> {
  const replies = await db
    .select({ id: emailComments.id, authorUserId: emailComments.authorUserId })
    .from(emailComments)
    .where(ofEmail(email, eq(emailComments.parentId, first.id), eq(emailComments.authorType, 'User')));
  const ids = [
    first.authorType === 'User' ? first.authorUserId : null,
    ...replies.filter((reply) => reply.id < beforeId).map((reply) => reply.authorUserId),
  ];
  return [...new Set(ids.filter((id): id is number => id !== null))];
}

/** Comments as the API shows them: their people in one query, their AI reviewers in another. */
async function toCommentResponses(
  db: Database,
  email: EmailRow,
  rows: CommentRow[],
): Promise<CommentResponse[]> {
  if (rows.length === 0) return [];
  const userIds = new Set<number>();
  const reviewerIds = new Set<number>();
  for (const row of rows) {
    if (row.authorUserId !== null) userIds.add(row.authorUserId);
    if (row.resolverId !== null) userIds.add(row.resolverId);
    if (row.authorAiReviewerId !== null) reviewerIds.add(row.authorAiReviewerId);
    for (const id of row.mentionedUserIds) userIds.add(id);
  }
  const [people, reviewers] = await Promise.all([
    userIds.size === 0
      ? []
      : db
          .select(userReferenceColumns)
          .from(users)
          .where(and(inArray(users.id, [...userIds]), eq(users.organizationId, email.organizationId))),
    reviewerIds.size === 0
      ? []
      : db
          .select({ id: aiReviewers.id, name: aiReviewers.name })
          .from(aiReviewers)
          .where(
            and(inArray(aiReviewers.id, [...reviewerIds]), eq(aiReviewers.workspaceId, email.workspaceId)),
          ),
  ]);
  const personById = new Map(people.map((person) => [person.id, toUserReference(person)]));
  const reviewerById = new Map(reviewers.map((reviewer) => [reviewer.id, reviewer]));
  const instanceIds = instanceIdsOf(email);
  return rows.map((row) => ({
    id: row.id,
    email_id: row.emailId,
    locale: row.locale as CommentResponse['locale'],
    author_type: row.authorType,
    author:
      row.authorType === 'AiReviewer'
        ? (reviewerById.get(row.authorAiReviewerId ?? 0) ?? null)
        : (personById.get(row.authorUserId ?? 0) ?? null),
    parent_id: row.parentId,
    pin_data: row.pinData as StoredPinData | null,
    pin_detached: isDetached(row.pinData, instanceIds),
    body: row.body,
    mentions: row.mentionedUserIds.flatMap((id) => {
      const person = personById.get(id);
      return person ? [person] : [];
    }),
    resolved: row.resolved,
    resolver_id: row.resolverId,
    resolver: row.resolverId === null ? null : (personById.get(row.resolverId) ?? null),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}

function isDetached(pin: StoredPinData | null, instanceIds: ReadonlySet<string>): boolean {
  return Boolean(pin?.component_instance_id && !instanceIds.has(pin.component_instance_id));
}
