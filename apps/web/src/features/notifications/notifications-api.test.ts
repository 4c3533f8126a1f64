import { describe, expect, it } from 'vitest';
import { type Notification, notificationTarget, timeAgo } from './notifications-api.ts';

describe('timeAgo', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it.each([
    ['2026-11-25T11:59:30.000Z', 'just now'],
    ['2026-11-25T12:00:05.000Z', 'just now'],
    ['2026-11-25T11:55:00.000Z', '5 min ago'],
    ['2026-11-25T09:00:00.000Z', '3 h ago'],
    ['2026-11-23T12:00:00.000Z', '2 d ago'],
  ])('says %s was %s', (iso, expected) => {
    expect(timeAgo(iso, now)).toBe(expected);
  });

  it('gives the date beyond a week', () => {
    expect(timeAgo('2026-11-01T12:00:00.000Z', now)).toBe(
      new Date('2026-11-01T12:00:00.000Z').toLocaleDateString(),
    );
  });
});

describe('notificationTarget', () => {
  const notification = (email: Notification['email']): Notification => ({
    id: 1,
    kind: 'mentioned_in_comment',
    message: 'Ada mentioned you',
    actor: null,
    email,
    email_comment_id: null,
    read: false,
    read_at: null,
    created_at: '2026-11-25T12:00:00.000Z',
  });

  it('leads to the email in the editor, in its own workspace', () => {
    expect(notificationTarget(notification({ id: 9, workspace_id: 4, name: 'Spring' }))).toBe(
      '/workspaces/4/emails/9/edit',
    );
  });

  it('leads nowhere when the email is gone', () => {
    expect(notificationTarget(notification(null))).toBeNull();
  });
});
