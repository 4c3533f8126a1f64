import { describe, expect, it } from 'vitest';
import type { EmailComment } from './comments-api.ts';
import { groupThreads, pinNumbers, shownThreads } from './threads.ts';

function comment(id: number, extra: Partial<EmailComment> = {}): EmailComment {
  return {
    id,
    email_id: 1,
    locale: 'en-US',
    author_type: 'User',
    author: { id: 1, first_name: 'Ada', last_name: 'Admin', profile_image_url: null },
    parent_id: null,
    pin_data: null,
    pin_detached: false,
    body: `Comment ${id}`,
    mentions: [],
    resolved: false,
    resolver_id: null,
    resolver: null,
    created_at: `2026-01-01T00:00:${String(id).padStart(2, '0')}.000Z`,
    updated_at: `2026-01-01T00:00:${String(id).padStart(2, '0')}.000Z`,
    ...extra,
  };
}

const pin = (id: string) => ({
  id,
  component_instance_id: null,
  branch_key: null,
  coordinates: { center_offset_x_px: 0, y: 0 },
});

describe('comment threads', () => {
  it('puts replies under their first comment and orders threads by last activity, newest last', () => {
    const threads = groupThreads([
      comment(4, { parent_id: 1 }),
      comment(1),
      comment(2),
      comment(3, { parent_id: 2 }),
      comment(9, { parent_id: 404 }),
    ]);
    expect(threads.map((thread) => [thread.first.id, thread.replies.map((reply) => reply.id)])).toEqual([
      [2, [3]],
      [1, [4]],
    ]);
    expect(threads[1]?.lastActivityAt).toBe(comment(4).created_at);
  });

  it('hides resolved threads unless asked', () => {
    const threads = groupThreads([
      comment(1, { resolved: true }),
      comment(2),
      comment(3, { parent_id: 1, resolved: true }),
    ]);
    expect(shownThreads(threads, false).map((thread) => thread.first.id)).toEqual([2]);
    expect(shownThreads(threads, true).map((thread) => thread.first.id)).toEqual([2, 1]);
  });

  it('numbers pinned threads in the order they were started, whatever their activity', () => {
    const threads = groupThreads([
      comment(1, { pin_data: pin('a') }),
      comment(2),
      comment(3, { pin_data: pin('b'), resolved: true }),
      comment(5, { parent_id: 1 }),
    ]);
    expect([...pinNumbers(threads)]).toEqual([
      [1, 1],
      [3, 2],
    ]);
  });
});
