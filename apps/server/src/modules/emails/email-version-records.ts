import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { emails, emailVersions } from '../../db/schema.ts';
import type { AiFeature } from '../../integrations/ai/ai-client.ts';
import type { EmailRow } from './emails.serializers.ts';

// Not in email-versions.ts: restoring a version writes through changeEmail, which records one.

/**
 * Records the email's content and locales as a version of its own (a creation, an AI write, an
 * import, a restore), which ends the email's editing session: the next save starts a new version
 * instead of replacing one older than this.
 */
export async function recordVersion(
  database: Pick<Database, 'insert' | 'update'>,
  email: Pick<EmailRow, 'id' | 'content' | 'locales'>,
  author: { userId: number | null },
  aiFeature: AiFeature | null = null,
  restoredFromVersionId: string | null = null,
) {
  await database.insert(emailVersions).values({
    emailId: email.id,
    versionId: randomUUID(),
    emailData: { email_content: email.content, locales: email.locales },
    lastUpdatedById: author.userId,
    aiFeature,
    restoredFromVersionId,
  });
  await database
    .update(emails)
    .set({ openVersionId: null, updatedAt: sql`${emails.updatedAt}` })
    .where(and(eq(emails.id, email.id), isNotNull(emails.openVersionId)));
}
