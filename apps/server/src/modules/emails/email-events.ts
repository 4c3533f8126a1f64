import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/** The channel on which every server process hears what changed on an email (LISTEN/NOTIFY). */
export const emailEventsChannel = 'letterset_email_events';

/**
 * What changed on an email, as its viewers are told. Small on purpose (NOTIFY payloads are
 * capped at 8,000 bytes): viewers fetch what changed themselves, with their own permissions.
 */
export type EmailEvent =
  | { type: 'comments_changed'; email_id: number; locale: string }
  | { type: 'status_changed'; email_id: number; status: string }
  | { type: 'review_changed'; email_id: number }
  | { type: 'content_changed'; email_id: number; lock_version: number };

/**
 * Announces an event to every process. Called inside the transaction that made the change, the
 * announcement goes out when (and only if) it commits.
 */
export async function announceEmailEvent(db: Database, event: EmailEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${emailEventsChannel}, ${JSON.stringify(event)})`);
}
