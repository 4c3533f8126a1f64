import { runDesignSystemGeneration } from '../modules/ai-generation/design-system-generation.ts';
import type { JobName, JobPayloads } from './job-payloads.ts';
import { defineJobKind } from './queue.ts';

/**
 * Designs a design system's components with AI (create_with_ai). The runner ends the system `done`
 * on any failure of its own, so the job is retried only after a crash or shutdown, from the start.
 */
export const designSystemGenerationJob = defineJobKind({
  name: 'design-system-generation' satisfies JobName,
  retryLimit: 1,
  retryDelaySeconds: 5,
  expireInSeconds: 20 * 60,
  run: async (payload: JobPayloads['design-system-generation'], context) => ({
    outcome: await runDesignSystemGeneration(context.services, payload, context.signal),
  }),
});
