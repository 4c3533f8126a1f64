import type { EmailPresence } from './email-events.ts';

/** An entry not heard of for this long is gone (its tab crashed or lost the network). */
export const presenceTimeoutMs = 30_000;

/** How often an open tab says it is still there: well inside the timeout, so one lost heartbeat is harmless. */
export const presenceHeartbeatMs = 10_000;

/**
 * Who has one email open, built from presence announcements and a clock: the latest announcement
 * of each tab wins, a `left` one removes it, and an entry not renewed for `presenceTimeoutMs` is
 * dropped. Pure (the caller passes the time), so the server's registry and the browser's list are
 * the same code.
 */
export class PresenceRoster {
  private readonly entries = new Map<string, { presence: EmailPresence; heardAt: number }>();

  /**
   * Takes in one announcement; returns whether the list of who is here (or what they selected)
   * changed. A tab belongs to the person who first announced it: an announcement of the same tab
   * by someone else (who saw its id in the stream) is ignored.
   */
  hear(presence: EmailPresence, now: number): boolean {
    const known = this.entries.get(presence.session_id);
    if (known && known.presence.user_id !== presence.user_id) return false;
    if (presence.left) return this.entries.delete(presence.session_id);
    this.entries.set(presence.session_id, { presence, heardAt: now });
    return (
      known === undefined ||
      known.presence.selected_instance_id !== presence.selected_instance_id ||
      known.presence.user_name !== presence.user_name
    );
  }

  /** Drops the entries not renewed in time; returns whether any was. */
  expire(now: number): boolean {
    let dropped = false;
    for (const [sessionId, entry] of this.entries) {
      if (now - entry.heardAt >= presenceTimeoutMs) {
        this.entries.delete(sessionId);
        dropped = true;
      }
    }
    return dropped;
  }

  /** Everyone here at `now`, except `exceptSessionId` (the asking tab), oldest arrival first. */
  present(now: number, exceptSessionId?: string): EmailPresence[] {
    this.expire(now);
    return [...this.entries.values()]
      .map((entry) => entry.presence)
      .filter((presence) => presence.session_id !== exceptSessionId);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Up to two letters for an avatar: the initials of the first and last word of a name. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** One colour per person, the same in every tab and on every screen (avatar, outline, preview). */
export function presenceColorOf(userId: number): string {
  const palette = ['blue', 'grape', 'teal', 'orange', 'pink', 'cyan', 'lime', 'violet', 'red', 'indigo'];
  return palette[Math.abs(userId) % palette.length] ?? 'blue';
}
