import { type EmailPresence, PresenceRoster, type StreamedEmailEvent } from '@letterset/core';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { announceEmailEvent } from './email-events.ts';

/** What the registry needs of the process's email event hub: the events of one email. */
export interface EmailEventSource {
  watch(emailId: number, viewer: (event: StreamedEmailEvent) => void): Promise<() => void>;
}

interface FollowedEmail {
  roster: PresenceRoster;
  stopWatching: Promise<() => void>;
}

/**
 * Who has each email open, as this process knows it. Presence is announced on the email event
 * channel (NOTIFY), so every process hears every tab's announcements, whichever process the tab
 * talks to; this registry follows the channel for the emails someone asked about here, and answers
 * them with everyone present. Nothing is stored: entries live `presenceTimeoutMs` past their last
 * heartbeat. A process that starts following an email learns of tabs served by other processes at
 * their next heartbeat.
 */
export class EmailPresenceRegistry {
  private readonly followed = new Map<number, FollowedEmail>();
  private readonly options: { hub: EmailEventSource; now: () => number };

  constructor(options: { hub: EmailEventSource; now?: () => number }) {
    this.options = { now: Date.now, ...options };
  }

  /**
   * Announces one tab's presence (or its leaving) to every viewer of the email, in every process;
   * answers who is there now, the tab itself included unless it left. `db` is the connection (or
   * transaction) the announcement goes out on.
   */
  async announce(db: Database, emailId: number, presence: EmailPresence): Promise<EmailPresence[]> {
    const now = this.options.now();
    this.forgetEmptyEmails(now);
    const followed = await this.follow(emailId);
    const known = followed.roster.present(now).find((entry) => entry.session_id === presence.session_id);
    // Someone else's tab is not theirs to move or close (its id is seen by every viewer).
    if (known && known.user_id !== presence.user_id) return followed.roster.present(now);
    followed.roster.hear(presence, now);
    await announceEmailEvent(db, { type: 'presence_changed', email_id: emailId, presence });
    return followed.roster.present(now);
  }

  /** Who has the email open, as far as this process has heard (nobody for an email it does not follow). */
  present(emailId: number): EmailPresence[] {
    return this.followed.get(emailId)?.roster.present(this.options.now()) ?? [];
  }

  /** Whether another person's tab has this id (a leave of it is refused). */
  belongsToSomeoneElse(emailId: number, sessionId: string, userId: number): boolean {
    const entry = this.followed
      .get(emailId)
      ?.roster.present(this.options.now())
      .find((presence) => presence.session_id === sessionId);
    return entry !== undefined && entry.user_id !== userId;
  }

  private async follow(emailId: number): Promise<FollowedEmail> {
    const known = this.followed.get(emailId);
    if (known) {
      await known.stopWatching;
      return known;
    }
    const roster = new PresenceRoster();
    const stopWatching = this.options.hub.watch(emailId, (event) => {
      if (event.type === 'presence_changed') roster.hear(event.presence, this.options.now());
    });
    const followed = { roster, stopWatching };
    this.followed.set(emailId, followed);
    try {
      await stopWatching;
    } catch (error) {
      this.followed.delete(emailId);
      throw error;
    }
    return followed;
  }

  /** Stops following emails nobody has open any more, so the registry does not grow for ever. */
  private forgetEmptyEmails(now: number): void {
    for (const [emailId, followed] of this.followed) {
      if (followed.roster.present(now).length > 0) continue;
      this.followed.delete(emailId);
      void followed.stopWatching.then((stop) => stop()).catch(() => undefined);
    }
  }
}

/** The name shown on a person's avatar. */
export async function presenceNameOf(db: Database, organizationId: number, userId: number): Promise<string> {
  const [user] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
  if (!user) return 'Someone';
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}
