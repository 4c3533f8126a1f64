import { sql } from 'drizzle-orm';
import { approvalWorkflows, emails, reviewApprovals } from '../../db/schema.ts';

/**
 * Emails in review whose stage under way counts the user among its reviewers, who has not
 * decided on it yet in this round: the reviews waiting on them.
 */
export function awaitingReviewBy(userId: number) {
  return sql`${emails.status} = 'in_review' and exists (
    select 1 from ${approvalWorkflows}
    where ${approvalWorkflows.emailId} = ${emails.id}
      and ${approvalWorkflows.status} = 'in_progress'
      and exists (
        select 1 from jsonb_array_elements(${approvalWorkflows.stages}) as stage
        where (stage->>'position')::int = ${approvalWorkflows.currentStagePosition}
          and stage->'user_ids' @> to_jsonb(${userId}::int)
      )
      and not exists (
        select 1 from ${reviewApprovals}
        where ${reviewApprovals.approvalWorkflowId} = ${approvalWorkflows.id}
          and ${reviewApprovals.round} = ${approvalWorkflows.round}
          and ${reviewApprovals.stagePosition} = ${approvalWorkflows.currentStagePosition}
          and ${reviewApprovals.userId} = ${userId}
      )
  )`;
}

/** Emails whose review under way (or last completed) the user submitted. */
export function submittedBy(userId: number) {
  return sql`exists (
    select 1 from ${approvalWorkflows}
    where ${approvalWorkflows.emailId} = ${emails.id}
      and ${approvalWorkflows.status} <> 'cancelled'
      and ${approvalWorkflows.creatorId} = ${userId}
  )`;
}
