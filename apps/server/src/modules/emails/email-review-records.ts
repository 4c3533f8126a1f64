import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { approvalWorkflows, type emails } from '../../db/schema.ts';
import { ValidationError } from '../../http/errors.ts';

/*
 * What the email lifecycle needs to know about an email's review, over the tables alone: the
 * emails module calls these inside its own transactions (publish, convert to draft).
 */

/** Ends the workflow under way, if any; whether there was one. */
export async function cancelWorkflowUnderWay(tx: Database, emailId: number): Promise<boolean> {
  const cancelled = await tx
    .update(approvalWorkflows)
    .set({ status: 'cancelled' })
    .where(and(eq(approvalWorkflows.emailId, emailId), eq(approvalWorkflows.status, 'in_progress')))
    .returning({ id: approvalWorkflows.id });
  return cancelled.length > 0;
}

/**
 * What is approved is what ships: a (non-forced) publish goes ahead only when the latest
 * completed workflow approved the content the email holds now.
 */
export async function assertApprovedContent(
  tx: Database,
  email: Pick<typeof emails.$inferSelect, 'id' | 'lockVersion'>,
): Promise<void> {
  const [completed] = await tx
    .select({ approvedLockVersion: approvalWorkflows.approvedLockVersion })
    .from(approvalWorkflows)
    .where(and(eq(approvalWorkflows.emailId, email.id), eq(approvalWorkflows.status, 'completed')))
    .orderBy(desc(approvalWorkflows.id))
    .limit(1);
  if (!completed || completed.approvedLockVersion !== email.lockVersion) {
    throw ValidationError.field(
      'lock_version',
      completed
        ? `is ${email.lockVersion}, but version ${completed.approvedLockVersion} was approved: only the approved content can be published (or publish with force: true)`
        : 'has no approval: only content approved through a review can be published (or publish with force: true)',
    );
  }
}
