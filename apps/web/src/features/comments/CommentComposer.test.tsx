import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CommentBody } from './CommentBody.tsx';
import { CommentComposer } from './CommentComposer.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));

// The comment box grows with its text, listening for web fonts loading, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

const member = (id: number, first_name: string, last_name: string) => ({
  id,
  first_name,
  last_name,
  email: `${first_name.toLowerCase()}@example.com`,
  profile_image_url: null,
});

function renderComposer() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onSubmit = vi.fn(async (_body: string) => {});
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <CommentComposer workspaceId={7} onSubmit={onSubmit} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { onSubmit, box: screen.getByRole('combobox', { name: 'Comment' }) };
}

describe('CommentComposer', () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.GET.mockResolvedValue({
      data: {
        results: [member(1, 'Ada', 'Lovelace'), member(2, 'Grace', 'Hopper'), member(3, 'Alan', 'Turing')],
        pagination: { page: 1, per: 100, total: 3 },
      },
      response: { ok: true, status: 200 },
    });
  });

  it('lists the workspace’s people on @, narrows as you type, and inserts the picked one’s token', async () => {
    const { box, onSubmit } = renderComposer();
    await userEvent.type(box, 'Ping @');
    const list = await screen.findByRole('listbox', { name: 'People to mention' });
    expect(list.querySelectorAll('[role="option"]')).toHaveLength(3);
    await userEvent.type(box, 'r');
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
        'Grace Hoppergrace@example.com',
        'Alan Turingalan@example.com',
      ]),
    );
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(box).toHaveValue('Ping @[Alan Turing](user:3) ');
    expect(screen.queryByRole('listbox')).toBeNull();

    await userEvent.type(box, 'thanks');
    await userEvent.click(screen.getByRole('button', { name: 'Comment' }));
    expect(onSubmit).toHaveBeenCalledWith('Ping @[Alan Turing](user:3) thanks');
    await waitFor(() => expect(box).toHaveValue(''));
    expect(apiCalls.GET).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/users', {
      params: { path: { workspace_id: 7 }, query: { page: 1, per: 100 } },
    });
  });

  it('picks with a click too, and Escape closes the list without picking', async () => {
    const { box } = renderComposer();
    await userEvent.type(box, '@gr');
    await userEvent.click(await screen.findByRole('option', { name: /Grace Hopper/ }));
    expect(box).toHaveValue('@[Grace Hopper](user:2) ');
    await userEvent.type(box, '@');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box).toHaveValue('@[Grace Hopper](user:2) @');
  });
});

describe('CommentBody', () => {
  it('shows mentions as names, never tokens, and markup as text', () => {
    render(
      <MantineProvider env="test">
        <CommentBody body={'Hi @[Ada Lovelace](user:1) <img src=x onerror="alert(1)">'} />
      </MantineProvider>,
    );
    const mention = screen.getByText('@Ada Lovelace');
    const text = mention.parentElement as HTMLElement;
    expect(text.textContent).toBe('Hi @Ada Lovelace <img src=x onerror="alert(1)">');
    expect(text.querySelector('img')).toBeNull();
    expect(mention.getAttribute('data-mention')).toBe('1');
  });
});
