import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { aiReviewers, type ReviewAssigneeType, reviewAssignments, roles, users } from '../../db/schema.ts';
import type { Principal } from '../../http/access.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import { emailVisibilityOf } from '../emails/email-audience.ts';
import { type EmailRow, findVisibleEmail } from '../emails/emails.service.ts';
import { type NotificationServices, notify, personName } from '../notifications/notifications.service.ts';
import { toUserReference } from '../users/users.serializers.ts';
import type { CreateReviewAssignmentBody, ReviewAssignment } from './review-assignments.schemas.ts';

type AssignmentRow = typeof reviewAssignments.$inferSelect;
type ReviewAssignmentResponse = Static<typeof ReviewAssignment>;

/** What asking for a review needs: the database, the emails the caller may see, and the notifier. */
export interface ReviewAssignmentServices {
  app: App;
  notifications: NotificationServices;
}

/** Who each assignment names, as the API shows it; assignments whose assignee is gone are left out. */
async function toResponses(db: Database, rows: AssignmentRow[]): Promise<ReviewAssignmentResponse[]> {
  const idsOf = (type: ReviewAssigneeType) =>
    rows.filter((row) => row.assigneeType === type).map((row) => row.assigneeId);
  const userIds = [
    ...new Set([...idsOf('User'), ...rows.flatMap((row) => (row.assignedById ? [row.assignedById] : []))]),
  ];
  const [userRows, roleRows, reviewerRows] = await Promise.all([
    userIds.length > 0 ? db.select().from(users).where(inArray(users.id, userIds)) : [],
    idsOf('Role').length > 0
      ? db
          .select({ id: roles.id, name: roles.name })
          .from(roles)
          .where(inArray(roles.id, idsOf('Role')))
      : [],
    idsOf('AiReviewer').length > 0
      ? db
          .select({ id: aiReviewers.id, name: aiReviewers.name })
          .from(aiReviewers)
          .where(inArray(aiReviewers.id, idsOf('AiReviewer')))
      : [],
  ]);
  const usersById = new Map(userRows.map((user) => [user.id, user]));
  const named = {
    Role: new Map(roleRows.map((role) => [role.id, role])),
    AiReviewer: new Map(reviewerRows.map((reviewer) => [reviewer.id, reviewer])),
  };
  return rows.flatMap((row) => {
    let assignee: ReviewAssignmentResponse['assignee'] | undefined;
    if (row.assigneeType === 'User') {
      const user = usersById.get(row.assigneeId);
      assignee = user && { ...toUserReference(user), name: personName(user) };
    } else {
      const record = named[row.assigneeType].get(row.assigneeId);
      assignee = record && { id: record.id, name: record.name };
    }
    if (!assignee) return [];
    const assigner = row.assignedById ? usersById.get(row.assignedById) : undefined;
    return [
      {
        id: row.id,
        email_id: row.emailId,
        assignee_id: row.assigneeId,
        assignee_type: row.assigneeType,
        assignee,
        assigned_by_id: row.assignedById,
        assigned_by: assigner ? toUserReference(assigner) : null,
        created_at: row.createdAt,
      },
    ];
  });
}

export async function listReviewAssignments(
  app: App,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  page: PageRequest,
) {
  const { email } = await findVisibleEmail(app, principal, workspaceId, emailId);
  const db = app.database.db;
  const where = eq(reviewAssignments.emailId, email.id);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(reviewAssignments)
      .where(where)
      .orderBy(asc(reviewAssignments.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(reviewAssignments).where(where),
  ]);
  return listBody(await toResponses(db, rows), total?.value ?? 0, page);
}

const assigneeField = 'assignee_id';

/**
 * Who is to be told of the request: the user asked, or every holder of the role asked who can see
 * the email; nobody for an AI reviewer. Refuses (422) an assignee that is not of the organization
 * (or, for an AI reviewer, of the workspace), and a user who cannot see the email.
 */
async function recipientsFor(
  db: Database,
  email: EmailRow,
  input: Static<typeof CreateReviewAssignmentBody>,
): Promise<{ recipientIds: number[]; roleName?: string }> {
  if (input.assignee_type === 'User') {
    const [found] = await emailVisibilityOf(db, email, eq(users.id, input.assignee_id));
    if (!found) throw ValidationError.field(assigneeField, 'is not a user of this organization');
    const who = personName(found.user);
    if (!found.inWorkspace)
      throw ValidationError.field(
        assigneeField,
        `${who} cannot see this email: they are not a member of its workspace`,
      );
    if (!found.seesProject)
      throw ValidationError.field(
        assigneeField,
        `${who} cannot see this email: they are not on the team that owns its project`,
      );
    return { recipientIds: [found.user.id] };
  }
  if (input.assignee_type === 'Role') {
    const [role] = await db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(and(eq(roles.id, input.assignee_id), eq(roles.organizationId, email.organizationId)));
    if (!role) throw ValidationError.field(assigneeField, 'is not a role of this organization');
    const holders = await emailVisibilityOf(db, email, eq(users.roleId, role.id));
    return {
      recipientIds: holders.filter((row) => row.inWorkspace && row.seesProject).map((row) => row.user.id),
      roleName: role.name,
    };
  }
  const [reviewer] = await db
    .select({ id: aiReviewers.id })
    .from(aiReviewers)
    .where(and(eq(aiReviewers.id, input.assignee_id), eq(aiReviewers.workspaceId, email.workspaceId)));
  if (!reviewer) throw ValidationError.field(assigneeField, 'is not an AI reviewer of this workspace');
  return { recipientIds: [] };
}

const alreadyAsked = () => ValidationError.field(assigneeField, 'is already asked to review this email');

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code;
  return code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';
}

/**
 * Asks a person, everyone of a role, or an AI reviewer to look at the email, outside any formal
 * workflow; the people asked hear of it (`requested_review`), the asker excepted.
 */
export async function createReviewAssignment(
  services: ReviewAssignmentServices,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  input: Static<typeof CreateReviewAssignmentBody>,
): Promise<ReviewAssignmentResponse> {
  const db = services.app.database.db;
  const { email } = await findVisibleEmail(services.app, principal, workspaceId, emailId);
  const { recipientIds, roleName } = await recipientsFor(db, email, input);
  const [asked] = await db
    .select({ id: reviewAssignments.id })
    .from(reviewAssignments)
    .where(
      and(
        eq(reviewAssignments.emailId, email.id),
        eq(reviewAssignments.assigneeType, input.assignee_type),
        eq(reviewAssignments.assigneeId, input.assignee_id),
      ),
    );
  if (asked) throw alreadyAsked();
  let row: AssignmentRow | undefined;
  try {
    [row] = await db
      .insert(reviewAssignments)
      .values({
        organizationId: principal.organizationId,
        workspaceId: email.workspaceId,
        emailId: email.id,
        assigneeType: input.assignee_type,
        assigneeId: input.assignee_id,
        assignedById: principal.userId,
      })
      .returning();
  } catch (error) {
    // Two requests for the same assignee at once: the unique index lets one in.
    if (isUniqueViolation(error)) throw alreadyAsked();
    throw error;
  }
  if (!row) throw new Error('review assignment insert returned nothing');

  const [actor] = await db.select().from(users).where(eq(users.id, principal.userId));
  const [response] = await toResponses(db, [row]);
  if (!response) throw new Error('the new review assignment names no assignee');
  if (recipientIds.length > 0) {
    const asker = actor ? personName(actor) : 'Someone';
    const whom = roleName === undefined ? 'you' : `everyone with the ${roleName} role`;
    await notify(services.notifications, [
      {
        kind: 'requested_review',
        recipientIds,
        actor: actor ?? null,
        email: {
          id: email.id,
          organizationId: email.organizationId,
          workspaceId: email.workspaceId,
          name: email.name,
        },
        message: `${asker} asked ${whom} to review “${email.name}”`,
      },
    ]);
  }
  return response;
}

/**
 * Withdraws a request. Anyone who may ask for reviews (submit_for_approval) and sees the email
 * may withdraw any of its requests, not only their own: requests are shared work of the email.
 */
export async function deleteReviewAssignment(
  app: App,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  id: number,
): Promise<void> {
  const { email } = await findVisibleEmail(app, principal, workspaceId, emailId);
  const deleted = await app.database.db
    .delete(reviewAssignments)
    .where(and(eq(reviewAssignments.id, id), eq(reviewAssignments.emailId, email.id)))
    .returning({ id: reviewAssignments.id });
  if (deleted.length === 0) throw new NotFoundError();
}
