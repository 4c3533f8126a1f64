import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CommentThreads } from './CommentThreads.tsx';
import type { EmailComment } from './comments-api.ts';

vi.mock('../../app/api.ts', () => ({ api: {}, SESSION_EXPIRED_EVENT: 'test:session-expired' }));

const aiComment: EmailComment = {
  id: 7,
  email_id: 1,
  locale: 'en-US',
  author_type: 'AiReviewer',
  author: { id: 12, name: 'Brand voice' },
  parent_id: null,
  pin_data: {
    id: '00000000-0000-4000-8000-000000000001',
    component_instance_id: '00000000-0000-4000-8000-000000000002',
    branch_key: null,
    coordinates: { center_offset_x_px: 0, y: 12 },
  },
  pin_detached: false,
  body: 'The button names no price.',
  mentions: [],
  resolved: false,
  resolver_id: null,
  resolver: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('CommentThreads', () => {
  it('names an AI reviewer’s comment by the reviewer, with an AI badge and no edit menu', () => {
    const calls = { create: vi.fn(), update: vi.fn(), remove: vi.fn(), toggleResolution: vi.fn() };
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={new QueryClient()}>
          <CommentThreads
            threads={[{ first: aiComment, replies: [], lastActivityAt: aiComment.created_at }]}
            pinNumbers={new Map([[7, 1]])}
            selectedThreadId={null}
            onSelectThread={() => {}}
            myUserId={12}
            workspaceId={3}
            calls={calls}
          />
        </QueryClientProvider>
      </MantineProvider>,
    );
    const thread = screen.getByLabelText('Thread by Brand voice');
    expect(within(thread).getByText('Brand voice')).toBeInTheDocument();
    expect(within(thread).getByTitle('Written by an AI reviewer')).toHaveTextContent(/^AI$/);
    expect(within(thread).getByText('The button names no price.')).toBeInTheDocument();
    expect(within(thread).getByRole('button', { name: 'Pin 1' })).toBeInTheDocument();
    // Its author is no person: even a user whose id matches the reviewer's cannot edit it.
    expect(within(thread).queryByRole('button', { name: /Actions on/ })).toBeNull();
  });
});
