import { runEmailGeneration } from '../modules/ai-generation/email-generation.ts';
import type { JobName, JobPayloads } from './job-payloads.ts';
import { defineJobKind } from './queue.ts';

/**
 * Writes an email with AI (create_with_ai, clone_with_ai). The runner ends the email `done` on any
 * failure of its own, so the job is retried only after a crash or shutdown, from the start.
 */
export const emailGenerationJob = defineJobKind({
  name: 'email-generation' satisfies JobName,
  retryLimit: 1,
  retryDelaySeconds: 5,
  expireInSeconds: 15 * 60,
  run: async (payload: JobPayloads['email-generation'], context) => ({
    outcome: await runEmailGeneration(context.services, payload, context.signal),
  }),
});
