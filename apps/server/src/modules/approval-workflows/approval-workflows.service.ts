import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import {
  approvalWorkflows,
  type EmailStatus,
  emails,
  type ReviewDecision,
  reviewApprovals,
  reviewGroups,
  type StageSnapshot,
  type StoredCheckProblem,
  users,
} from '../../db/schema.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { usersWhoCanSee } from '../emails/email-audience.ts';
import { announceEmailEvent } from '../emails/email-events.ts';
import { moveEmail } from '../emails/emails.lifecycle.ts';
import { type PreSendChecker, passPreSendChecks } from '../emails/pre-send-gate.ts';
import {
  type EmailNotice,
  type NotificationServices,
  notify,
  personName,
} from '../notifications/notifications.service.ts';
import {
  createReviewGroupRecords,
  loadReviewGroup,
  stagesSnapshotOf,
} from '../review-groups/review-groups.service.ts';
import { toUserReference, userReferenceColumns } from '../users/users.serializers.ts';
import { countedApprovers, namesInWords, stageComplete, stagesProgress } from './approval-rules.ts';
import type {
  ApprovalWorkflow,
  ReviewApproval,
  ReviewApprovalBody,
  SubmitForApprovalBody,
} from './approval-workflows.schemas.ts';

type EmailRow = typeof emails.$inferSelect;
type WorkflowRow = typeof approvalWorkflows.$inferSelect;
type Person = { id: number; firstName: string; lastName: string; profileImageUrl: string | null };

async function peopleById(db: Database, ids: readonly number[]): Promise<Map<number, Person>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select(userReferenceColumns)
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The stages a submission names: a reusable group's (read from its tables) or the ones in the body. */
async function requestedStages(
  db: Database,
  principal: Principal,
  body: Static<typeof SubmitForApprovalBody>,
): Promise<{ stages: StageSnapshot[]; reviewGroupId: number | null }> {
  const hasGroup = body.review_group_id !== undefined;
  const hasStages = body.stages !== undefined;
  if (hasGroup === hasStages) {
    throw ValidationError.field(
      hasGroup ? 'stages' : 'review_group_id',
      hasGroup
        ? 'cannot come with review_group_id: submit to a review group or to stages of your own'
        : 'is required (or stages chosen for this email)',
    );
  }
  if (body.stages) {
    return {
      reviewGroupId: null,
      stages: body.stages.map((stage, index) => ({
        position: index + 1,
        approval_type: stage.approval_type,
        user_ids: [...new Set(stage.members.map((member) => member.user_id))],
      })),
    };
  }
  const group = await loadReviewGroup(db, principal.organizationId, body.review_group_id as number);
  if (!group?.reusable) {
    throw ValidationError.field('review_group_id', 'is not a reusable review group of this organization');
  }
  const stages = stagesSnapshotOf(group);
  if (stages.length === 0 || stages.some((stage) => stage.user_ids.length === 0)) {
    throw ValidationError.field('review_group_id', 'has a stage without members: nobody could approve it');
  }
  return { stages, reviewGroupId: group.id };
}

/**
 * Stages chosen for one email are stored as a review group of their own (`reusable: false`), so
 * the workflow names a group like any other. The stages were checked before (members deduplicated,
 * each one seeing the email), so the review groups' own checks find nothing more to refuse.
 */
async function recordOneOffReviewGroup(
  tx: Database,
  email: EmailRow,
  stages: readonly StageSnapshot[],
): Promise<number> {
  const { id } = await createReviewGroupRecords(tx, email.organizationId, {
    name: `Review of “${email.name}”`,
    reusable: false,
    stages: stages.map((stage) => ({
      position: stage.position,
      approval_type: stage.approval_type,
      members: stage.user_ids.map((userId) => ({ user_id: userId })),
    })),
  });
  return id;
}

/** Every stage member must be able to see the email; 422 naming those who cannot. */
async function assertMembersCanSee(
  db: Database,
  email: EmailRow,
  stages: readonly StageSnapshot[],
  field: string,
) {
  const memberIds = [...new Set(stages.flatMap((stage) => stage.user_ids))];
  const seeing = new Set((await usersWhoCanSee(db, email, { userIds: memberIds })).map((user) => user.id));
  const blind = memberIds.filter((id) => !seeing.has(id));
  if (blind.length === 0) return;
  const known = await db
    .select(userReferenceColumns)
    .from(users)
    .where(and(inArray(users.id, blind), eq(users.organizationId, email.organizationId)));
  const names = blind.map((id) => {
    const person = known.find((candidate) => candidate.id === id);
    return person ? personName(person) : `user ${id}`;
  });
  throw ValidationError.field(
    field,
    `${namesInWords(names)} cannot see this email (not a user of this workspace who sees its project), so cannot review it`,
  );
}

/** Locks the email row for the rest of the transaction: two decisions cannot both complete a stage. */
async function lockEmail(tx: Database, emailId: number): Promise<EmailRow> {
  const [email] = await tx.select().from(emails).where(eq(emails.id, emailId)).for('update');
  if (!email) throw new NotFoundError();
  return email;
}

/**
 * The pre-send checks ran before the transaction, on the content read then: an edit saved in
 * between would go through unchecked, so the step is refused and the caller tries again.
 */
function assertCheckedContent(email: EmailRow, checked: EmailRow): void {
  if (email.lockVersion !== checked.lockVersion) {
    throw new ConflictError('The email changed while its pre-send checks ran: try again', {
      lock_version: email.lockVersion,
    });
  }
}

async function workflowUnderWay(tx: Database, emailId: number): Promise<WorkflowRow | undefined> {
  const [workflow] = await tx
    .select()
    .from(approvalWorkflows)
    .where(and(eq(approvalWorkflows.emailId, emailId), eq(approvalWorkflows.status, 'in_progress')))
    .orderBy(desc(approvalWorkflows.id))
    .limit(1);
  return workflow;
}

function stageAt(workflow: Pick<WorkflowRow, 'stages'>, position: number): StageSnapshot {
  const stage = workflow.stages.find((candidate) => candidate.position === position);
  if (!stage) throw new Error(`workflow has no stage ${position}`);
  return stage;
}

function noticeEmail(email: EmailRow): EmailNotice['email'] {
  return {
    id: email.id,
    organizationId: email.organizationId,
    workspaceId: email.workspaceId,
    name: email.name,
  };
}

async function actorOf(db: Database, principal: Principal) {
  const [actor] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, principal.userId));
  return actor ?? null;
}

/**
 * Submits an email for approval (or resubmits it after changes were requested). The email must
 * be one the caller sees (the route checked); the stage members must see it too.
 */
export async function submitForApproval(
  services: NotificationServices,
  /** Submitting and approving run them: blocking problems refuse the step, warnings go with it. */
  preSendChecks: PreSendChecker,
  principal: Principal,
  visibleEmail: EmailRow,
  body: Static<typeof SubmitForApprovalBody>,
): Promise<Static<typeof ApprovalWorkflow>> {
  const db = services.database.db;
  const resubmission = body.resubmission === true;
  const requested = resubmission ? null : await requestedStages(db, principal, body);
  if (requested) {
    await assertMembersCanSee(db, visibleEmail, requested.stages, body.stages ? 'stages' : 'review_group_id');
  }
  // The status (and the key) refuse first: checks are no reason to refuse what the status forbids anyway.
  moveEmail(principal, visibleEmail.status, resubmission ? 'resubmit' : 'submit_for_approval');
  const warnings = await passPreSendChecks(preSendChecks, visibleEmail, 'submit');

  const { email, workflow } = await db.transaction(async (tx) => {
    const email = await lockEmail(tx, visibleEmail.id);
    const status = moveEmail(principal, email.status, resubmission ? 'resubmit' : 'submit_for_approval');
    assertCheckedContent(email, visibleEmail);
    let workflow: WorkflowRow | undefined;
    if (resubmission) {
      const underWay = await workflowUnderWay(tx, email.id);
      if (!underWay) {
        throw ValidationError.field(
          'resubmission',
          'has no review to continue (it was cancelled or never started): submit without resubmission',
        );
      }
      [workflow] = await tx
        .update(approvalWorkflows)
        .set({ round: underWay.round + 1 })
        .where(eq(approvalWorkflows.id, underWay.id))
        .returning();
    } else if (requested) {
      await tx
        .update(approvalWorkflows)
        .set({ status: 'cancelled' })
        .where(and(eq(approvalWorkflows.emailId, email.id), eq(approvalWorkflows.status, 'in_progress')));
      const reviewGroupId =
        requested.reviewGroupId ?? (await recordOneOffReviewGroup(tx, email, requested.stages));
      [workflow] = await tx
        .insert(approvalWorkflows)
        .values({
          organizationId: email.organizationId,
          workspaceId: email.workspaceId,
          emailId: email.id,
          reviewGroupId,
          creatorId: principal.userId,
          stages: requested.stages,
          currentStagePosition: 1,
          round: 1,
        })
        .returning();
    }
    if (!workflow) throw new Error('workflow write returned nothing');
    await tx.update(emails).set({ status }).where(eq(emails.id, email.id));
    await announceEmailEvent(tx, { type: 'status_changed', email_id: email.id, status });
    await announceEmailEvent(tx, { type: 'review_changed', email_id: email.id });
    return { email, workflow };
  });

  const actor = await actorOf(db, principal);
  const stage = stageAt(workflow, workflow.currentStagePosition);
  await notify(services, [
    {
      kind: 'requested_review',
      recipientIds: stage.user_ids,
      actor,
      email: noticeEmail(email),
      message: `${actor ? personName(actor) : 'Someone'} ${resubmission ? 'resubmitted' : 'asked you to review'} “${email.name}”${resubmission ? ' for your review' : ''} (stage ${stage.position})`,
    },
  ]);
  return { ...(await toWorkflowResponse(db, workflow)), pre_send_warnings: warnings };
}

/**
 * Where a decision would go: the status it moves the email to, the workflow under way, its
 * current stage and whose approvals count there. 422 when the email is not in review or the
 * caller already approved this stage; 403 for anyone but the current stage's members.
 */
async function decisionAtCurrentStage(
  db: Database,
  principal: Principal,
  email: EmailRow,
  decision: ReviewDecision,
) {
  const decidedStatus = moveEmail(
    principal,
    email.status,
    decision === 'approved' ? 'approve' : 'request_changes',
  );
  const workflow = await workflowUnderWay(db, email.id);
  if (!workflow) {
    throw ValidationError.field('status', 'has no review in progress: submit the email for approval first');
  }
  const stage = stageAt(workflow, workflow.currentStagePosition);
  const decisions = await db
    .select()
    .from(reviewApprovals)
    .where(eq(reviewApprovals.approvalWorkflowId, workflow.id));
  const approvers = countedApprovers(workflow, stage.position, decisions);
  if (!stage.user_ids.includes(principal.userId)) {
    const awaited = stage.user_ids.filter((userId) => !approvers.includes(userId));
    const people = await peopleById(db, awaited);
    const names = awaited.map((id) => {
      const person = people.get(id);
      return person ? personName(person) : `user ${id}`;
    });
    throw new ForbiddenError(
      `Stage ${stage.position} is waiting on ${namesInWords(names)}: only members of the current stage decide`,
    );
  }
  if (approvers.includes(principal.userId)) {
    throw ValidationError.field(
      'decision',
      `is already recorded: you approved stage ${stage.position} in this round`,
    );
  }
  return { decidedStatus, workflow, stage, approvers };
}

/**
 * A reviewer's decision at the current stage. Only members of that stage decide (403 naming whom
 * the stage waits on); the email must be in review (422). Runs with the email row locked.
 */
export async function decideReview(
  services: NotificationServices,
  /** Submitting and approving run them: blocking problems refuse the step, warnings go with it. */
  preSendChecks: PreSendChecker,
  principal: Principal,
  visibleEmail: EmailRow,
  body: Static<typeof ReviewApprovalBody>,
): Promise<Static<typeof ReviewApproval>> {
  const db = services.database.db;
  const decision: ReviewDecision = body.decision;
  const reviewComment = body.review_comment?.trim() ? body.review_comment : null;
  const notices: EmailNotice[] = [];
  const actor = await actorOf(db, principal);
  const actorName = actor ? personName(actor) : 'Someone';
  // An approval is refused over blocking problems; a request for changes never is (it is how they get fixed).
  const approving = decision === 'approved';
  let warnings: StoredCheckProblem[] = [];
  if (approving) {
    // Who may decide is told before what the checks find, and the checks cannot run inside the
    // transaction (they read through the outer connection): the rules run once here, read-only,
    // and again under the lock below.
    await decisionAtCurrentStage(db, principal, visibleEmail, decision);
    warnings = await passPreSendChecks(preSendChecks, visibleEmail, 'approve');
  }

  const approvalId = await db.transaction(async (tx) => {
    const email = await lockEmail(tx, visibleEmail.id);
    if (approving) assertCheckedContent(email, visibleEmail);
    const { decidedStatus, workflow, stage, approvers } = await decisionAtCurrentStage(
      tx,
      principal,
      email,
      decision,
    );
    const [approval] = await tx
      .insert(reviewApprovals)
      .values({
        approvalWorkflowId: workflow.id,
        stagePosition: stage.position,
        round: workflow.round,
        userId: principal.userId,
        decision,
        reviewComment,
        emailLockVersion: email.lockVersion,
        preSendWarnings: warnings,
      })
      .returning({ id: reviewApprovals.id });
    if (!approval) throw new Error('review approval insert returned nothing');

    let status: EmailStatus = email.status;
    if (decision === 'request_changes') {
      status = decidedStatus;
      notices.push({
        kind: 'review_changes_requested',
        recipientIds: workflow.creatorId ? [workflow.creatorId] : [],
        actor,
        email: noticeEmail(email),
        message: `${actorName} requested changes to “${email.name}” (stage ${stage.position})`,
        quote: reviewComment,
      });
    } else if (stageComplete(stage, [...approvers, principal.userId])) {
      const next = workflow.stages.find((candidate) => candidate.position > stage.position);
      if (next) {
        await tx
          .update(approvalWorkflows)
          .set({ currentStagePosition: next.position })
          .where(eq(approvalWorkflows.id, workflow.id));
        notices.push({
          kind: 'requested_review',
          recipientIds: next.user_ids,
          actor,
          email: noticeEmail(email),
          message: `Stage ${stage.position} approved “${email.name}”: it now waits on your review (stage ${next.position})`,
        });
      } else {
        status = decidedStatus;
        await tx
          .update(approvalWorkflows)
          .set({ status: 'completed', completedAt: new Date(), approvedLockVersion: email.lockVersion })
          .where(eq(approvalWorkflows.id, workflow.id));
        notices.push({
          kind: 'review_approved',
          recipientIds: workflow.creatorId ? [workflow.creatorId] : [],
          actor,
          email: noticeEmail(email),
          message: `“${email.name}” is approved: ${actorName} approved the last stage`,
          quote: reviewComment,
        });
        const publishers = await usersWhoCanSee(tx, email, { permission: 'publish_emails' });
        notices.push({
          kind: 'ready_to_publish',
          recipientIds: publishers.map((publisher) => publisher.id),
          actor,
          email: noticeEmail(email),
          message: `“${email.name}” is approved and ready to publish`,
        });
      }
    }
    if (status !== email.status) {
      await tx.update(emails).set({ status }).where(eq(emails.id, email.id));
      await announceEmailEvent(tx, { type: 'status_changed', email_id: email.id, status });
    }
    await announceEmailEvent(tx, { type: 'review_changed', email_id: email.id });
    return approval.id;
  });

  await notify(services, notices);
  const [row] = await db.select().from(reviewApprovals).where(eq(reviewApprovals.id, approvalId));
  if (!row) throw new NotFoundError();
  return toApprovalResponse(row, actor ? (await peopleById(db, [actor.id])).get(actor.id) : undefined);
}

function toApprovalResponse(
  row: typeof reviewApprovals.$inferSelect,
  user: Person | undefined,
): Static<typeof ReviewApproval> {
  return {
    id: row.id,
    approval_workflow_id: row.approvalWorkflowId,
    decision: row.decision,
    review_comment: row.reviewComment,
    user_id: row.userId,
    user: user ? toUserReference(user) : null,
    stage_position: row.stagePosition,
    round: row.round,
    email_lock_version: row.emailLockVersion,
    pre_send_warnings: row.preSendWarnings as Static<typeof ReviewApproval>['pre_send_warnings'],
    created_at: row.createdAt,
  };
}

/** The email's latest workflow (404 "no workflow" when it was never submitted). */
export async function getLatestWorkflow(
  db: Database,
  email: Pick<EmailRow, 'id'>,
): Promise<Static<typeof ApprovalWorkflow>> {
  const [workflow] = await db
    .select()
    .from(approvalWorkflows)
    .where(eq(approvalWorkflows.emailId, email.id))
    .orderBy(desc(approvalWorkflows.id))
    .limit(1);
  if (!workflow) throw new NotFoundError('This email has no approval workflow: it was never submitted');
  return toWorkflowResponse(db, workflow);
}

async function toWorkflowResponse(
  db: Database,
  workflow: WorkflowRow,
): Promise<Static<typeof ApprovalWorkflow>> {
  const [decisions, [group]] = await Promise.all([
    db
      .select()
      .from(reviewApprovals)
      .where(eq(reviewApprovals.approvalWorkflowId, workflow.id))
      .orderBy(asc(reviewApprovals.id)),
    workflow.reviewGroupId === null
      ? Promise.resolve([])
      : db
          .select({ id: reviewGroups.id, name: reviewGroups.name, reusable: reviewGroups.reusable })
          .from(reviewGroups)
          .where(eq(reviewGroups.id, workflow.reviewGroupId)),
  ]);
  const people = await peopleById(db, [
    ...workflow.stages.flatMap((stage) => stage.user_ids),
    ...decisions.flatMap((decision) => (decision.userId === null ? [] : [decision.userId])),
    ...(workflow.creatorId === null ? [] : [workflow.creatorId]),
  ]);
  const reference = (id: number | null) => {
    const person = id === null ? undefined : people.get(id);
    return person ? toUserReference(person) : null;
  };
  return {
    id: workflow.id,
    email_id: workflow.emailId,
    status: workflow.status,
    review_group_id: workflow.reviewGroupId,
    review_group: {
      id: group?.id ?? null,
      // A group deleted since keeps its stages in the snapshot; only its name is gone.
      name: group?.name ?? 'Deleted review group',
      reusable: group?.reusable ?? false,
      stages: workflow.stages.map((stage) => ({
        position: stage.position,
        approval_type: stage.approval_type,
        members: stage.user_ids.map((userId) => ({ user_id: userId, user: reference(userId) })),
      })),
    },
    creator_id: workflow.creatorId,
    creator: reference(workflow.creatorId),
    current_stage_position: workflow.currentStagePosition,
    round: workflow.round,
    review_approvals: decisions.map((decision) =>
      toApprovalResponse(decision, decision.userId === null ? undefined : people.get(decision.userId)),
    ),
    stages_progress: stagesProgress(workflow, decisions),
    approved_lock_version: workflow.approvedLockVersion,
    created_at: workflow.createdAt,
    completed_at: workflow.completedAt,
  };
}
