import { exportJob } from './export-job.ts';
import type { JobKind } from './queue.ts';

/**
 * Every kind of background work the server runs. A module that needs a job adds its kind here
 * (one file per kind in this folder); the queue creates a durable queue and a worker for each.
 */
export const jobKinds: readonly JobKind[] = [exportJob as JobKind];
