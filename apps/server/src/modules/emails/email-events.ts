import type { EmailEvent } from '@letterset/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/** The channel on which every server process hears what changed on an email (LISTEN/NOTIFY). */
export const emailEventsChannel = 'letterset_email_events';

/**
 * Announces an event to every process. Called inside the transaction that made the change, the
 * announcement goes out when (and only if) it commits.
 */
export async function announceEmailEvent(db: Database, event: EmailEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${emailEventsChannel}, ${JSON.stringify(event)})`);
}

/**
 * The `content_changed` announcement as an expression, for a statement that writes the email and
 * announces it at once: `emailId` and `lockVersion` name what the statement wrote.
 */
export function contentChangedAnnouncement(emailId: SQL, lockVersion: SQL): SQL {
  const event = sql`json_build_object('type', ${'content_changed' satisfies EmailEvent['type']}::text, 'email_id', ${emailId}, 'lock_version', ${lockVersion})`;
  return sql`pg_notify(${emailEventsChannel}, ${event}::text)`;
}

export type { EmailEvent };
