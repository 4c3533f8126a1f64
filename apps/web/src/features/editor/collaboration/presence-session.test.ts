import { type EmailPresence, presenceHeartbeatMs, presenceTimeoutMs } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { PresenceSession } from './presence-session.ts';

const entry = (sessionId: string, changes: Partial<EmailPresence> = {}): EmailPresence => ({
  session_id: sessionId,
  user_id: sessionId === 'me' ? 1 : 2,
  user_name: sessionId === 'me' ? 'Ada Admin' : 'Erin Editor',
  selected_instance_id: null,
  left: false,
  ...changes,
});

/** A session with a clock and timers the test drives, and a server that answers with `present`. */
function setUp() {
  const world = {
    now: 0,
    timers: new Map<number, { at: number; run: () => void }>(),
    announced: [] as (string | null)[],
    left: 0,
    present: [entry('me')] as EmailPresence[],
  };
  let next = 1;
  const session = new PresenceSession({
    sessionId: 'me',
    announce: async (selected) => {
      world.announced.push(selected);
      return world.present;
    },
    leave: () => {
      world.left++;
    },
    timers: {
      set: (run, delayMs) => {
        world.timers.set(next, { at: world.now + delayMs, run });
        return next++;
      },
      clear: (handle) => {
        world.timers.delete(handle as number);
      },
    },
    now: () => world.now,
  });
  const pass = (ms: number) => {
    const until = world.now + ms;
    for (;;) {
      const due = [...world.timers]
        .filter(([, timer]) => timer.at <= until)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      world.timers.delete(due[0]);
      world.now = due[1].at;
      due[1].run();
    }
    world.now = until;
  };
  return { world, session, pass };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('PresenceSession', () => {
  it('says it is here on start, on each selection change and as a heartbeat, and leaves on stop', async () => {
    const { world, session, pass } = setUp();
    session.start(null);
    session.select('hero');
    session.select('hero');
    pass(presenceHeartbeatMs);
    expect(world.announced).toEqual([null, 'hero', 'hero']);
    session.stop();
    session.stop();
    expect(world.left).toBe(1);
    pass(presenceHeartbeatMs * 3);
    expect(world.announced).toHaveLength(3);
  });

  it('lists the others from the answers and the stream, not itself, and drops those who left or went quiet', async () => {
    const { world, session, pass } = setUp();
    world.present = [entry('me'), entry('erin')];
    let changes = 0;
    session.subscribe(() => changes++);
    session.start(null);
    await flush();
    expect(session.others.map((presence) => presence.session_id)).toEqual(['erin']);

    session.hear({
      type: 'presence_changed',
      email_id: 1,
      presence: entry('erin', { selected_instance_id: 'x' }),
    });
    expect(session.others[0]?.selected_instance_id).toBe('x');
    session.hear({ type: 'presence_changed', email_id: 1, presence: entry('erin', { left: true }) });
    expect(session.others).toEqual([]);

    world.present = [entry('me')];
    session.hear({ type: 'presence_changed', email_id: 1, presence: entry('tab-2') });
    expect(session.others).toHaveLength(1);
    pass(presenceTimeoutMs + presenceTimeoutMs / 6);
    expect(session.others, 'a tab not heard of for 30 s is gone').toEqual([]);
    expect(changes).toBeGreaterThanOrEqual(4);
  });

  it('asks the server again after the stream reconnected', () => {
    const { world, session } = setUp();
    session.start('hero');
    session.hear({ type: 'resync', email_id: 1 });
    expect(world.announced).toEqual(['hero', 'hero']);
  });
});
