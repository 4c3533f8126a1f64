import { and, eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { updateReturning } from '../../db/record-updates.ts';
import { aiReviewers, reviewAssignments } from '../../db/schema.ts';
import { findWorkspaceRecord, pageOfWorkspaceRecords } from '../../db/workspace-records.ts';
import { ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import type { AiReviewer, CreateAiReviewerBody, UpdateAiReviewerBody } from './ai-reviewers.schemas.ts';

type AiReviewerRow = typeof aiReviewers.$inferSelect;

function toResponse(row: AiReviewerRow): Static<typeof AiReviewer> {
  return {
    id: row.id,
    name: row.name,
    review_instructions: row.reviewInstructions,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function listAiReviewers(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  page: PageRequest,
) {
  const { rows, total } = await pageOfWorkspaceRecords(services, aiReviewers, workspaceId, page);
  return listBody(rows.map(toResponse), total, page);
}

export async function getAiReviewer(services: Pick<Services, 'database'>, workspaceId: number, id: number) {
  return toResponse(await findWorkspaceRecord(services, aiReviewers, workspaceId, id));
}

/** People pick reviewers by name: two of one workspace never share one (case aside). */
async function assertNameFree(db: Database, workspaceId: number, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: aiReviewers.id })
    .from(aiReviewers)
    .where(
      and(
        eq(aiReviewers.workspaceId, workspaceId),
        sql`lower(${aiReviewers.name}) = lower(${name})`,
        exceptId === undefined ? undefined : sql`${aiReviewers.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  if (clash) throw ValidationError.field('name', 'is already taken by another AI reviewer');
}

export async function createAiReviewer(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateAiReviewerBody>,
) {
  await assertNameFree(services.database.db, workspaceId, input.name);
  const [row] = await services.database.db
    .insert(aiReviewers)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      name: input.name,
      reviewInstructions: input.review_instructions,
    })
    .returning();
  if (!row) throw new Error('AI reviewer insert returned nothing');
  return toResponse(row);
}

export async function updateAiReviewer(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateAiReviewerBody>,
) {
  await findWorkspaceRecord(services, aiReviewers, workspaceId, id);
  if (input.name !== undefined) await assertNameFree(services.database.db, workspaceId, input.name, id);
  const [row] = await updateReturning(services.database.db, aiReviewers, eq(aiReviewers.id, id), {
    name: input.name,
    reviewInstructions: input.review_instructions,
  });
  if (!row) throw new Error('AI reviewer update returned nothing');
  return toResponse(row);
}

/** Deletes the reviewer and the review requests made of it (they could never be answered). */
export async function deleteAiReviewer(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
): Promise<void> {
  await findWorkspaceRecord(services, aiReviewers, workspaceId, id);
  await services.database.db.transaction(async (tx) => {
    await tx
      .delete(reviewAssignments)
      .where(
        and(
          eq(reviewAssignments.workspaceId, workspaceId),
          eq(reviewAssignments.assigneeType, 'AiReviewer'),
          eq(reviewAssignments.assigneeId, id),
        ),
      );
    await tx.delete(aiReviewers).where(eq(aiReviewers.id, id));
  });
}
