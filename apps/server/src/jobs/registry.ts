import { aiReviewJob } from './ai-review-job.ts';
import { designSystemGenerationJob } from './design-system-generation-job.ts';
import { emailGenerationJob } from './email-generation-job.ts';
import { emailTranslationJob } from './email-translation-job.ts';
import { exportJob } from './export-job.ts';
import type { JobKind } from './queue.ts';

/**
 * Every kind of background work the server runs. A module that needs a job adds its kind here
 * (one file per kind in this folder); the queue creates a durable queue and a worker for each.
 */
export const jobKinds: readonly JobKind[] = [
  exportJob as JobKind,
  emailGenerationJob as JobKind,
  aiReviewJob as JobKind,
  designSystemGenerationJob as JobKind,
  emailTranslationJob as JobKind,
];
