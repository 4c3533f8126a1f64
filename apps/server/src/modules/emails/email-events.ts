import type { EmailEvent } from '@letterset/core';
import { sql } from 'drizzle-orm';
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

export type { EmailEvent };
