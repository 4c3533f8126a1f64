import { type EmailContent, valuesEqual } from '@letterset/core';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { emails } from '../../db/schema.ts';
import type { AiFeature } from '../../integrations/ai/ai-client.ts';
import { announceEmailEvent } from './email-events.ts';
import { recordVersion } from './email-version-records.ts';
import { assertEditable } from './emails.lifecycle.ts';
import { contentOf, type EmailRow } from './emails.serializers.ts';

/** An AI feature's change to an email, computed from the email as it is when written. */
export interface AiContentWrite {
  feature: AiFeature;
  /** On whose behalf: the person who asked. */
  userId: number | null;
  /** The new content and locales from the current ones; null when there is nothing to write. */
  change(current: EmailRow): { content: EmailContent; locales: string[] } | null;
  /** Columns set with the write (or alone, when `change` writes nothing): the generation status. */
  alsoSet?: Partial<Pick<EmailRow, 'aiGenerationStatus' | 'aiGenerationError'>>;
}

/**
 * Writes what an AI feature made, under the email's row lock and on its content as it is now, so
 * that edits made while the model was thinking are kept (the change touches only its own values),
 * as a version attributed to the feature. Refused (422) where a person's edit would be: published,
 * in review or approved. Null when the email no longer exists.
 */
export async function writeAiContent(
  db: Database,
  emailId: number,
  write: AiContentWrite,
): Promise<EmailRow | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(emails).where(eq(emails.id, emailId)).for('update');
    if (!current) return null;
    const next = write.change(current);
    const contentChanged =
      next !== null &&
      (!valuesEqual(next.content, contentOf(current)) || !valuesEqual(next.locales, current.locales));
    if (contentChanged) assertEditable(current.status);
    // The same text again (a translation run twice) changes nothing and records no version.
    if (!contentChanged && write.alsoSet === undefined) return current;
    const [row] = await tx
      .update(emails)
      .set({
        ...write.alsoSet,
        ...(contentChanged && next
          ? {
              content: next.content as unknown as Record<string, unknown>,
              locales: next.locales,
              lockVersion: sql`${emails.lockVersion} + 1`,
              lastUpdatedById: write.userId,
            }
          : {}),
      })
      .where(eq(emails.id, emailId))
      .returning();
    if (!row) return null;
    if (contentChanged) {
      await recordVersion(tx, row, { userId: write.userId }, write.feature);
      await announceEmailEvent(tx, {
        type: 'content_changed',
        email_id: row.id,
        lock_version: row.lockVersion,
      });
    }
    if (write.alsoSet?.aiGenerationStatus !== undefined) {
      await announceEmailEvent(tx, {
        type: 'ai_generation_changed',
        email_id: row.id,
        ai_generation_status: row.aiGenerationStatus,
      });
    }
    return row;
  });
}
