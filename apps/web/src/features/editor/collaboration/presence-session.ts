import {
  type EmailPresence,
  PresenceRoster,
  presenceHeartbeatMs,
  presenceTimeoutMs,
  type StreamedEmailEvent,
} from '@letterset/core';
import type { Timers } from '../autosave.ts';

export interface PresenceSessionOptions {
  /** This tab's id. */
  sessionId: string;
  /** Says this tab is here with a selection; answers everyone present (or throws: the next heartbeat tries again). */
  announce(selectedInstanceId: string | null): Promise<EmailPresence[]>;
  leave(): void;
  timers: Timers;
  now(): number;
}

/**
 * One tab's presence on one email: it says it is here (on start, on every selection change, and as
 * a heartbeat), and keeps the list of the others from the server's answers and the event stream,
 * dropping those whose heartbeat stopped. No React: the hook binds it to the page.
 */
export class PresenceSession {
  private readonly options: PresenceSessionOptions;
  private readonly roster = new PresenceRoster();
  private readonly listeners = new Set<() => void>();
  private selected: string | null = null;
  private heartbeat: unknown = null;
  private sweep: unknown = null;
  private running = false;
  private shown: EmailPresence[] = [];

  constructor(options: PresenceSessionOptions) {
    this.options = options;
  }

  start(selectedInstanceId: string | null): void {
    this.running = true;
    this.selected = selectedInstanceId;
    this.announceNow();
    this.scheduleSweep();
  }

  /** The tab closes or leaves the email. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.options.timers.clear(this.heartbeat);
    this.options.timers.clear(this.sweep);
    this.options.leave();
  }

  select(selectedInstanceId: string | null): void {
    if (selectedInstanceId === this.selected) return;
    this.selected = selectedInstanceId;
    if (this.running) this.announceNow();
  }

  /** An event of the email's stream: presence changes are taken in; a resync asks the server again. */
  hear(event: StreamedEmailEvent): void {
    if (!this.running) return;
    if (event.type === 'presence_changed') {
      if (this.roster.hear(event.presence, this.options.now())) this.publish();
    } else if (event.type === 'resync') {
      this.announceNow();
    }
  }

  /** Everyone else who has the email open (other people, and this person's other tabs), oldest first. */
  get others(): EmailPresence[] {
    return this.shown;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private announceNow(): void {
    this.options.timers.clear(this.heartbeat);
    this.heartbeat = this.options.timers.set(() => this.announceNow(), presenceHeartbeatMs);
    this.options.announce(this.selected).then(
      (present) => {
        if (!this.running) return;
        const now = this.options.now();
        let changed = false;
        for (const presence of present) changed = this.roster.hear(presence, now) || changed;
        if (changed) this.publish();
      },
      () => undefined,
    );
  }

  private scheduleSweep(): void {
    this.sweep = this.options.timers.set(() => {
      if (!this.running) return;
      if (this.roster.expire(this.options.now())) this.publish();
      this.scheduleSweep();
    }, presenceTimeoutMs / 6);
  }

  private publish(): void {
    this.shown = this.roster.present(this.options.now(), this.options.sessionId);
    for (const listener of [...this.listeners]) listener();
  }
}
