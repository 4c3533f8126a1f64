import { and, eq, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AiGenerationStatus } from './schema.ts';

/**
 * The status an AI-written row reads as. Before `failed` existed a run that went wrong ended
 * `done` with its `ai_generation_error`; those rows read as `failed` too, so no data migration
 * is needed and every reader (serializer, list filter) agrees.
 */
export function readAiGenerationStatus(
  status: AiGenerationStatus | null,
  error: string | null,
): AiGenerationStatus | null {
  return status === 'done' && error !== null ? 'failed' : status;
}

/** The status a finished run is stored with: failed when it has something to tell. */
export function finishedAiGenerationStatus(error: string | null): AiGenerationStatus {
  return error === null ? 'done' : 'failed';
}

/** The SQL condition for rows that read as `status` (see readAiGenerationStatus). */
export function aiGenerationStatusIs(
  columns: { status: PgColumn; error: PgColumn },
  status: AiGenerationStatus,
): SQL | undefined {
  if (status === 'generating') return eq(columns.status, 'generating');
  if (status === 'done') return and(eq(columns.status, 'done'), isNull(columns.error));
  return or(eq(columns.status, 'failed'), and(eq(columns.status, 'done'), isNotNull(columns.error)));
}
