import { runLocaleTranslation } from '../modules/email-translations/locale-translation.ts';
import type { JobName, JobPayloads } from './job-payloads.ts';
import { defineJobKind } from './queue.ts';

/**
 * Translates an email into one locale (one job per locale of a translation). A few run at once in
 * each process: enough to translate many locales quickly without flooding the provider.
 */
export const emailTranslationJob = defineJobKind({
  name: 'email-translation' satisfies JobName,
  retryLimit: 1,
  retryDelaySeconds: 5,
  expireInSeconds: 15 * 60,
  concurrency: 3,
  run: async (payload: JobPayloads['email-translation'], context) => ({
    outcome: await runLocaleTranslation(context.services, payload, context.signal),
  }),
});
