import { type AnyColumn, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { emails, emailVersions } from '../db/schema.ts';

/**
 * As if `minutes` went by since an email was last written: every time it remembers (when it was
 * written, when its editing session last saved, when its versions were saved) moves back.
 */
export async function minutesPassForEmail(db: Database, emailId: number, minutes: number): Promise<void> {
  const back = (column: AnyColumn) => sql`${column} - make_interval(mins => ${minutes})`;
  await db
    .update(emails)
    .set({ updatedAt: back(emails.updatedAt), openVersionSavedAt: back(emails.openVersionSavedAt) })
    .where(eq(emails.id, emailId));
  await db
    .update(emailVersions)
    .set({ createdAt: back(emailVersions.createdAt), firstSavedAt: back(emailVersions.firstSavedAt) })
    .where(eq(emailVersions.emailId, emailId));
}
