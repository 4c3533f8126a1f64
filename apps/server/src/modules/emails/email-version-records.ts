import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { emailVersions } from '../../db/schema.ts';
import type { AiFeature } from '../../integrations/ai/ai-client.ts';
import type { EmailRow } from './emails.serializers.ts';

// Not in email-versions.ts: restoring a version writes through changeEmail, which records one.

/** Records the email's content and locales as a new version (every content or locale change does). */
export async function recordVersion(
  database: Pick<Database, 'insert'>,
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
}
