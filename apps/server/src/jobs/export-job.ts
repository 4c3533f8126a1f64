import { runExport } from '../modules/exports/export-runner.ts';
import type { JobName, JobPayloads } from './job-payloads.ts';
import { defineJobKind } from './queue.ts';

/**
 * Runs one export (see `runExport`). A crash or shutdown mid-way runs it again from the start on a
 * live worker; an error trying again may fix (storage down) is retried twice, a few seconds apart.
 */
export const exportJob = defineJobKind({
  name: 'export' satisfies JobName,
  retryLimit: 2,
  retryDelaySeconds: 3,
  expireInSeconds: 30 * 60,
  run: async (payload: JobPayloads['export'], context) => ({
    outcome: await runExport(context.services, payload.export_id, context.signal),
  }),
});
