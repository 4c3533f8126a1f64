import { describe, expect, it } from 'vitest';
import type { EmailPresence } from './email-events.ts';
import { initialsOf, PresenceRoster, presenceTimeoutMs } from './presence-roster.ts';

const presence = (sessionId: string, changes: Partial<EmailPresence> = {}): EmailPresence => ({
  session_id: sessionId,
  user_id: 1,
  user_name: 'Ada Lovelace',
  selected_instance_id: null,
  left: false,
  ...changes,
});

describe('PresenceRoster', () => {
  it('keeps the latest announcement of each tab and reports what changed', () => {
    const roster = new PresenceRoster();
    expect(roster.hear(presence('a'), 0)).toBe(true);
    expect(roster.hear(presence('a'), 5)).toBe(false);
    expect(roster.hear(presence('a', { selected_instance_id: 'x' }), 6)).toBe(true);
    expect(roster.hear(presence('b', { user_id: 2, user_name: 'Grace' }), 7)).toBe(true);
    expect(roster.present(8).map((entry) => [entry.session_id, entry.selected_instance_id])).toEqual([
      ['a', 'x'],
      ['b', null],
    ]);
    expect(roster.present(8, 'a').map((entry) => entry.session_id)).toEqual(['b']);
  });

  it('drops a tab that left, and one not heard of for the timeout', () => {
    const roster = new PresenceRoster();
    roster.hear(presence('a'), 0);
    roster.hear(presence('b'), 10_000);
    expect(roster.hear(presence('b', { left: true }), 11_000)).toBe(true);
    expect(roster.hear(presence('b', { left: true }), 11_001)).toBe(false);
    expect(roster.present(presenceTimeoutMs - 1).map((entry) => entry.session_id)).toEqual(['a']);
    expect(roster.expire(presenceTimeoutMs)).toBe(true);
    expect(roster.present(presenceTimeoutMs)).toEqual([]);
  });

  it('ignores announcements of another person’s tab', () => {
    const roster = new PresenceRoster();
    roster.hear(presence('a'), 0);
    expect(roster.hear(presence('a', { user_id: 2, left: true }), 1)).toBe(false);
    expect(roster.hear(presence('a', { user_id: 2, selected_instance_id: 'x' }), 1)).toBe(false);
    expect(roster.present(2)).toEqual([presence('a')]);
  });

  it('a heartbeat renews an entry', () => {
    const roster = new PresenceRoster();
    roster.hear(presence('a'), 0);
    roster.hear(presence('a'), presenceTimeoutMs - 1);
    expect(roster.present(presenceTimeoutMs + 5).length).toBe(1);
  });
});

describe('initialsOf', () => {
  it('takes the first and last word', () => {
    expect(initialsOf('Ada King Lovelace')).toBe('AL');
    expect(initialsOf('grace')).toBe('G');
    expect(initialsOf('  ')).toBe('?');
  });
});
