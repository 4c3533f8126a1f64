import { and, asc, count, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { changesAnything } from '../../db/record-updates.ts';
import {
  type ApprovalType,
  reviewGroupStageMembers,
  reviewGroupStages,
  reviewGroups,
  type StageSnapshot,
  users,
} from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { FieldErrors } from '../../http/validation-messages.ts';
import { toUserReference } from '../users/users.serializers.ts';
import type {
  CreateReviewGroupBody,
  ListReviewGroupsQuery,
  ReviewGroup,
  UpdateReviewGroupBody,
} from './review-groups.schemas.ts';

type ReviewGroupRow = typeof reviewGroups.$inferSelect;
export type ReviewGroupResponse = Static<typeof ReviewGroup>;

/** A stage as requests give it: `id`s (stage and members) only when updating, to keep existing ones. */
export interface ReviewStageInput {
  id?: number;
  position: number;
  approval_type: ApprovalType;
  members: { id?: number; user_id: number }[];
}

export interface ReviewGroupInput {
  name: string;
  reusable?: boolean;
  stages: ReviewStageInput[];
}

/** The groups' stages and members, as the API shows them, in two queries whatever the count. */
async function toReviewGroupResponses(db: Database, rows: ReviewGroupRow[]): Promise<ReviewGroupResponse[]> {
  if (rows.length === 0) return [];
  const stages = await db
    .select()
    .from(reviewGroupStages)
    .where(
      inArray(
        reviewGroupStages.reviewGroupId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(reviewGroupStages.position), asc(reviewGroupStages.id));
  const members =
    stages.length === 0
      ? []
      : await db
          .select({ member: reviewGroupStageMembers, user: users })
          .from(reviewGroupStageMembers)
          .innerJoin(users, eq(users.id, reviewGroupStageMembers.userId))
          .where(
            inArray(
              reviewGroupStageMembers.stageId,
              stages.map((stage) => stage.id),
            ),
          )
          .orderBy(asc(reviewGroupStageMembers.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    reusable: row.reusable,
    stages: stages
      .filter((stage) => stage.reviewGroupId === row.id)
      .map((stage) => ({
        id: stage.id,
        position: stage.position,
        approval_type: stage.approvalType,
        members: members
          .filter(({ member }) => member.stageId === stage.id)
          .map(({ member, user }) => ({
            id: member.id,
            user_id: member.userId,
            user: toUserReference(user),
          })),
      })),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}

/**
 * A review group of the organization as the API shows it, or null. The approval workflow embeds
 * an email's group with it (a one-off group is read there, not in the list).
 */
export async function loadReviewGroup(
  db: Database,
  organizationId: number,
  id: number,
): Promise<ReviewGroupResponse | null> {
  const [row] = await db
    .select()
    .from(reviewGroups)
    .where(and(eq(reviewGroups.id, id), eq(reviewGroups.organizationId, organizationId)));
  if (!row) return null;
  const [group] = await toReviewGroupResponses(db, [row]);
  return group ?? null;
}

/** The stages of a group as a workflow holds them: editing the group later never moves a workflow. */
export function stagesSnapshotOf(group: Pick<ReviewGroupResponse, 'stages'>): StageSnapshot[] {
  return group.stages.map((stage) => ({
    position: stage.position,
    approval_type: stage.approval_type,
    user_ids: stage.members.map((member) => member.user_id),
  }));
}

export async function listReviewGroups(
  db: Database,
  principal: Principal,
  query: Static<typeof ListReviewGroupsQuery>,
  page: PageRequest,
) {
  const reusable = query.reusable ?? 'true';
  const where = and(
    eq(reviewGroups.organizationId, principal.organizationId),
    reusable === 'all' ? undefined : eq(reviewGroups.reusable, reusable === 'true'),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(reviewGroups)
      .where(where)
      .orderBy(asc(sql`lower(${reviewGroups.name})`), asc(reviewGroups.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(reviewGroups).where(where),
  ]);
  return listBody(await toReviewGroupResponses(db, rows), total?.value ?? 0, page);
}

export async function getReviewGroup(db: Database, principal: Principal, id: number) {
  const group = await loadReviewGroup(db, principal.organizationId, id);
  if (!group) throw new NotFoundError();
  return group;
}

/** Reusable groups are offered by name, so two of them never share one (case aside). */
async function assertNameFree(db: Database, organizationId: number, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: reviewGroups.id })
    .from(reviewGroups)
    .where(
      and(
        eq(reviewGroups.organizationId, organizationId),
        eq(reviewGroups.reusable, true),
        sql`lower(${reviewGroups.name}) = lower(${name})`,
        exceptId === undefined ? undefined : sql`${reviewGroups.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  if (clash) throw ValidationError.field('name', 'is already taken by another review group');
}

interface ExistingStage {
  id: number;
  members: { id: number; userId: number }[];
}

/**
 * Everything wrong with the stages, keyed by where the client sent it (`stages.1.members.0.user_id`):
 * positions, members, ids of stages and members to keep (`existing`: the group's own, empty on
 * create), and users that are not live users of the organization.
 */
async function checkStages(
  db: Database,
  organizationId: number,
  stages: readonly ReviewStageInput[],
  existing: ReadonlyMap<number, ExistingStage>,
): Promise<void> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    const messages = errors[field] ?? [];
    if (!messages.includes(message)) errors[field] = [...messages, message];
  };
  if (stages.length === 0) add('stages', 'must have at least one stage');
  const positionsSeen = new Map<number, number>();
  const stageIdsSeen = new Set<number>();
  stages.forEach((stage, stageIndex) => {
    const at = `stages.${stageIndex}`;
    const samePosition = positionsSeen.get(stage.position);
    if (samePosition !== undefined) add(`${at}.position`, `is the same as stage ${samePosition + 1}’s`);
    else positionsSeen.set(stage.position, stageIndex);
    if (stage.members.length === 0) add(`${at}.members`, 'must have at least one member');

    const kept = stage.id === undefined ? undefined : existing.get(stage.id);
    if (stage.id !== undefined) {
      if (!kept) add(`${at}.id`, 'is not a stage of this review group');
      else if (stageIdsSeen.has(stage.id)) add(`${at}.id`, 'is given for two stages');
      stageIdsSeen.add(stage.id);
    }
    const usersSeen = new Set<number>();
    stage.members.forEach((member, memberIndex) => {
      const memberAt = `${at}.members.${memberIndex}`;
      if (usersSeen.has(member.user_id)) add(`${memberAt}.user_id`, 'is already a member of this stage');
      usersSeen.add(member.user_id);
      if (member.id === undefined) return;
      const keptMember = kept?.members.find((candidate) => candidate.id === member.id);
      if (!keptMember) add(`${memberAt}.id`, 'is not a member of this stage');
      else if (keptMember.userId !== member.user_id)
        add(
          `${memberAt}.user_id`,
          'is not the user of the member kept by id; leave out the id to add someone',
        );
    });
  });

  const userIds = [...new Set(stages.flatMap((stage) => stage.members.map((member) => member.user_id)))];
  const live =
    userIds.length === 0
      ? []
      : await db
          .select({ id: users.id })
          .from(users)
          .where(
            and(
              inArray(users.id, userIds),
              eq(users.organizationId, organizationId),
              isNull(users.deletedAt),
            ),
          );
  const liveIds = new Set(live.map((user) => user.id));
  stages.forEach((stage, stageIndex) => {
    stage.members.forEach((member, memberIndex) => {
      if (!liveIds.has(member.user_id))
        add(`stages.${stageIndex}.members.${memberIndex}.user_id`, 'is not a user of this organization');
    });
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** The stages in review order: by the position given, renumbered 1, 2, 3… */
function inReviewOrder(stages: readonly ReviewStageInput[]): ReviewStageInput[] {
  return stages
    .map((stage, index) => ({ stage, index }))
    .sort((a, b) => a.stage.position - b.stage.position || a.index - b.index)
    .map(({ stage }, index) => ({ ...stage, position: index + 1 }));
}

/**
 * Makes the group's stages and members what `ordered` says: kept stages and members (by id) are
 * updated in place, the others of the group removed, new ones inserted.
 */
async function writeStages(
  tx: Database,
  groupId: number,
  ordered: readonly ReviewStageInput[],
  existing: ReadonlyMap<number, ExistingStage>,
): Promise<void> {
  const keptStageIds = ordered.flatMap((stage) => (stage.id === undefined ? [] : [stage.id]));
  if (existing.size > 0) {
    await tx
      .delete(reviewGroupStages)
      .where(
        and(
          eq(reviewGroupStages.reviewGroupId, groupId),
          keptStageIds.length > 0 ? notInArray(reviewGroupStages.id, keptStageIds) : undefined,
        ),
      );
  }
  for (const stage of ordered) {
    let stageId: number;
    if (stage.id === undefined) {
      const [inserted] = await tx
        .insert(reviewGroupStages)
        .values({ reviewGroupId: groupId, position: stage.position, approvalType: stage.approval_type })
        .returning({ id: reviewGroupStages.id });
      if (!inserted) throw new Error('review group stage insert returned nothing');
      stageId = inserted.id;
    } else {
      stageId = stage.id;
      await tx
        .update(reviewGroupStages)
        .set({ position: stage.position, approvalType: stage.approval_type })
        .where(eq(reviewGroupStages.id, stageId));
      const keptMemberIds = stage.members.flatMap((member) => (member.id === undefined ? [] : [member.id]));
      await tx
        .delete(reviewGroupStageMembers)
        .where(
          and(
            eq(reviewGroupStageMembers.stageId, stageId),
            keptMemberIds.length > 0 ? notInArray(reviewGroupStageMembers.id, keptMemberIds) : undefined,
          ),
        );
    }
    const added = stage.members.filter((member) => member.id === undefined);
    if (added.length > 0) {
      await tx
        .insert(reviewGroupStageMembers)
        .values(added.map((member) => ({ stageId, userId: member.user_id })));
    }
  }
}

function snapshotOfInput(ordered: readonly ReviewStageInput[]): StageSnapshot[] {
  return ordered.map((stage) => ({
    position: stage.position,
    approval_type: stage.approval_type,
    user_ids: stage.members.map((member) => member.user_id),
  }));
}

/**
 * Checks and writes a new review group with its stages, inside the caller's transaction: the
 * approval workflow makes an email's one-off group (`reusable: false`) this way when it is
 * submitted with stages of its own. Refusals are 422s keyed `stages.N.…` and `name`. Returns
 * the group's id and its stages as a workflow snapshots them.
 */
export async function createReviewGroupRecords(
  tx: Database,
  organizationId: number,
  input: ReviewGroupInput,
): Promise<{ id: number; stagesSnapshot: StageSnapshot[] }> {
  const reusable = input.reusable ?? true;
  await checkStages(tx, organizationId, input.stages, new Map());
  if (reusable) await assertNameFree(tx, organizationId, input.name);
  const [group] = await tx
    .insert(reviewGroups)
    .values({ organizationId, name: input.name, reusable })
    .returning({ id: reviewGroups.id });
  if (!group) throw new Error('review group insert returned nothing');
  const ordered = inReviewOrder(input.stages);
  await writeStages(tx, group.id, ordered, new Map());
  return { id: group.id, stagesSnapshot: snapshotOfInput(ordered) };
}

export async function createReviewGroup(
  db: Database,
  principal: Principal,
  input: Static<typeof CreateReviewGroupBody>,
): Promise<ReviewGroupResponse> {
  const { id } = await db.transaction((tx) => createReviewGroupRecords(tx, principal.organizationId, input));
  return getReviewGroup(db, principal, id);
}

async function existingStagesOf(tx: Database, groupId: number): Promise<Map<number, ExistingStage>> {
  const stages = await tx
    .select({ id: reviewGroupStages.id })
    .from(reviewGroupStages)
    .where(eq(reviewGroupStages.reviewGroupId, groupId));
  const members =
    stages.length === 0
      ? []
      : await tx
          .select({
            id: reviewGroupStageMembers.id,
            stageId: reviewGroupStageMembers.stageId,
            userId: reviewGroupStageMembers.userId,
          })
          .from(reviewGroupStageMembers)
          .where(
            inArray(
              reviewGroupStageMembers.stageId,
              stages.map((stage) => stage.id),
            ),
          );
  return new Map(
    stages.map((stage) => [
      stage.id,
      { id: stage.id, members: members.filter((member) => member.stageId === stage.id) },
    ]),
  );
}

/**
 * Renames a group, makes it reusable or not, or replaces its stages (keeping those and the
 * members sent with their ids). Workflows under way hold a snapshot of their stages, so a change
 * here never moves them.
 */
export async function updateReviewGroup(
  db: Database,
  principal: Principal,
  id: number,
  input: Static<typeof UpdateReviewGroupBody>,
): Promise<ReviewGroupResponse> {
  await db.transaction(async (tx) => {
    // Locked: two edits of the same group's stages never interleave.
    const [group] = await tx
      .select()
      .from(reviewGroups)
      .where(and(eq(reviewGroups.id, id), eq(reviewGroups.organizationId, principal.organizationId)))
      .for('update');
    if (!group) throw new NotFoundError();
    // An update of nothing writes nothing: updated_at tells of real changes only.
    if (!changesAnything(input)) return;
    const name = input.name ?? group.name;
    const reusable = input.reusable ?? group.reusable;
    let existing: Map<number, ExistingStage> | undefined;
    if (input.stages !== undefined) {
      existing = await existingStagesOf(tx, id);
      await checkStages(tx, principal.organizationId, input.stages, existing);
    }
    if (reusable && (name !== group.name || !group.reusable))
      await assertNameFree(tx, principal.organizationId, name, id);
    // Always written (updated_at with it), so that updated_at tells of a change to the stages too.
    await tx.update(reviewGroups).set({ name, reusable }).where(eq(reviewGroups.id, id));
    if (input.stages !== undefined && existing)
      await writeStages(tx, id, inReviewOrder(input.stages), existing);
  });
  return getReviewGroup(db, principal, id);
}

/**
 * Deletes a group, even one a workflow under way was submitted to: the workflow keeps its
 * snapshot of the stages (its review_group_id becomes null) and goes on as submitted.
 */
export async function deleteReviewGroup(db: Database, principal: Principal, id: number): Promise<void> {
  const deleted = await db
    .delete(reviewGroups)
    .where(and(eq(reviewGroups.id, id), eq(reviewGroups.organizationId, principal.organizationId)))
    .returning({ id: reviewGroups.id });
  if (deleted.length === 0) throw new NotFoundError();
}
