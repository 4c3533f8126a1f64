import { runAiReview } from '../modules/review-assignments/ai-review.ts';
import type { JobName, JobPayloads } from './job-payloads.ts';
import { defineJobKind } from './queue.ts';

/**
 * Runs an AI reviewer's review of an email. The runner ends the assignment `done` or `failed` on
 * any failure of its own, so the job is retried only after a crash or shutdown, from the start
 * (its comments are posted at the end in one transaction: a rerun never doubles them).
 */
export const aiReviewJob = defineJobKind({
  name: 'ai-review' satisfies JobName,
  retryLimit: 1,
  retryDelaySeconds: 5,
  expireInSeconds: 15 * 60,
  run: async (payload: JobPayloads['ai-review'], context) => ({
    outcome: await runAiReview(context.services, payload, context.signal),
  }),
});
