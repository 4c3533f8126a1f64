import { and, asc, count, eq, inArray, isNull, lt, ne, or, type SQL } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { aiReviewers, type ReviewAssigneeType, reviewAssignments, roles, users } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { aiNotConfiguredMessage, loadAiConnection } from '../../integrations/ai/ai-client.ts';
import type { Services } from '../../services.ts';
import { emailVisibilityOf } from '../emails/email-audience.ts';
import { findVisibleEmail } from '../emails/email-visibility.ts';
import type { EmailRow } from '../emails/emails.serializers.ts';
import { notify, personName } from '../notifications/notifications.service.ts';
import { toUserReference } from '../users/users.serializers.ts';
import type { CreateReviewAssignmentBody, ReviewAssignment } from './review-assignments.schemas.ts';

type AssignmentRow = typeof reviewAssignments.$inferSelect;
type ReviewAssignmentResponse = Static<typeof ReviewAssignment>;

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
        ai_review_status: row.assigneeType === 'AiReviewer' ? row.aiReviewStatus : null,
        ai_review_error: row.assigneeType === 'AiReviewer' ? row.aiReviewError : null,
        created_at: row.createdAt,
      },
    ];
  });
}

export async function listReviewAssignments(
  services: Services,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  page: PageRequest,
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, emailId);
  const db = services.database.db;
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
 * workflow; the people asked hear of it (`requested_review`), the asker excepted. An AI reviewer's
 * review starts at once (see `startAiReview`).
 */
export async function createReviewAssignment(
  services: Services,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  input: Static<typeof CreateReviewAssignmentBody>,
): Promise<ReviewAssignmentResponse> {
  const db = services.database.db;
  const { email } = await findVisibleEmail(services, principal, workspaceId, emailId);
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
  if (row.assigneeType === 'AiReviewer') row = (await startAiReview(services, row, principal.userId)) ?? row;

  const [actor] = await db.select().from(users).where(eq(users.id, principal.userId));
  const [response] = await toResponses(db, [row]);
  if (!response) throw new Error('the new review assignment names no assignee');
  if (recipientIds.length > 0) {
    const asker = actor ? personName(actor) : 'Someone';
    const whom = roleName === undefined ? 'you' : `everyone with the ${roleName} role`;
    await notify(services, [
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
  services: Services,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  id: number,
): Promise<void> {
  const { email } = await findVisibleEmail(services, principal, workspaceId, emailId);
  const deleted = await services.database.db
    .delete(reviewAssignments)
    .where(and(eq(reviewAssignments.id, id), eq(reviewAssignments.emailId, email.id)))
    .returning({ id: reviewAssignments.id });
  if (deleted.length === 0) throw new NotFoundError();
}

/**
 * A review that shows `running` this long has lost its job (two attempts of 15 minutes each have
 * expired): it may be run again.
 */
const staleRunMs = 35 * 60 * 1000;

/**
 * Starts an AI reviewer's review: the assignment shows `running` and a job reviews the email.
 * Without an AI provider the request stands but the review ends `failed` at once, with the words
 * that say an Admin can set one up (so it can be run again once one is); nothing is sent. The
 * change lands only where `claim` holds (undefined when it does not).
 */
async function startAiReview(
  services: Services,
  row: AssignmentRow,
  userId: number,
  claim?: SQL,
): Promise<AssignmentRow | undefined> {
  const db = services.database.db;
  const setStatus = async (status: 'running' | 'failed', error: string | null, condition?: SQL) => {
    const [updated] = await db
      .update(reviewAssignments)
      .set({ aiReviewStatus: status, aiReviewError: error })
      .where(and(eq(reviewAssignments.id, row.id), condition))
      .returning();
    return updated;
  };
  if (!(await loadAiConnection(services, row.organizationId))) {
    return setStatus('failed', aiNotConfiguredMessage, claim);
  }
  const running = await setStatus('running', null, claim);
  if (!running) return undefined;
  try {
    await services.jobs.send('ai-review', { review_assignment_id: row.id, user_id: userId });
  } catch (error) {
    services.log.error({ err: error, reviewAssignmentId: row.id }, 'AI review job not sent');
    return setStatus(
      'failed',
      'The review could not be started because of an error in Letterset; run it again.',
    );
  }
  return running;
}

/**
 * Runs an AI reviewer's review again (after a failure, or for a fresh look once the email has
 * changed): its earlier comments stay, and it is told which of them are still open so that it
 * does not repeat them. 422 for a request made of a person or a role, and while the review runs.
 */
export async function runAiReviewAgain(
  services: Services,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  id: number,
): Promise<ReviewAssignmentResponse> {
  const db = services.database.db;
  const { email } = await findVisibleEmail(services, principal, workspaceId, emailId);
  const [assignment] = await db
    .select()
    .from(reviewAssignments)
    .where(and(eq(reviewAssignments.id, id), eq(reviewAssignments.emailId, email.id)));
  if (!assignment) throw new NotFoundError();
  if (assignment.assigneeType !== 'AiReviewer') {
    throw ValidationError.field(
      'review_assignment_id',
      'asks a person or a role: only an AI reviewer’s review runs',
    );
  }
  // Claimed in the statement that starts it: two clicks at once start one run.
  const notRunning = or(
    isNull(reviewAssignments.aiReviewStatus),
    ne(reviewAssignments.aiReviewStatus, 'running'),
    lt(reviewAssignments.updatedAt, new Date(Date.now() - staleRunMs)),
  );
  const started = await startAiReview(services, assignment, principal.userId, notRunning);
  if (!started) {
    throw new ValidationError(
      { ai_review_status: ['is running: wait for this review to finish'] },
      'This AI review is already running',
    );
  }
  const [response] = await toResponses(db, [started]);
  if (!response) throw new NotFoundError();
  return response;
}
