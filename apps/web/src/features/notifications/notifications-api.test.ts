import { describe, expect, it } from 'vitest';
import { type Notification, notificationTarget } from './notifications-api.ts';

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
