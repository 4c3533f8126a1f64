import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../app/session.ts';
import { AiReviewRuns } from './AiReviewRuns.tsx';
import type { ReviewAssignment } from './review-assignments-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
vi.mock('../live/use-email-events.ts', () => ({ useEmailEvents: () => {} }));

const answer = (body: unknown) =>
  Promise.resolve({ data: body, error: undefined, response: { ok: true, status: 200 } });
const page = (results: unknown[]) =>
  answer({ results, pagination: { page: 1, per: 100, total: results.length } });

const reviewOf = (
  id: number,
  name: string,
  review: Pick<ReviewAssignment, 'ai_review_status' | 'ai_review_error'>,
): ReviewAssignment => ({
  id,
  email_id: 9,
  assignee_id: id + 100,
  assignee_type: 'AiReviewer',
  assignee: { id: id + 100, name },
  assigned_by_id: 1,
  assigned_by: { id: 1, first_name: 'Ada', last_name: 'Admin', profile_image_url: null },
  ...review,
  created_at: '2026-11-01T00:00:00.000Z',
});

function renderRuns(permissions: string[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['me'], { permissions } as unknown as Me);
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <AiReviewRuns workspaceId={3} emailId={9} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('AI reviews in the Review tab', () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
  });

  it('shows a failed review with its reason and tries it again', async () => {
    apiCalls.GET.mockImplementation(() =>
      page([
        reviewOf(70, 'Brand voice', {
          ai_review_status: 'failed',
          ai_review_error: 'The AI provider is limiting requests (HTTP 429); try again in 30 seconds.',
        }),
        reviewOf(71, 'Legal', { ai_review_status: 'done', ai_review_error: null }),
      ]),
    );
    apiCalls.POST.mockImplementation(() =>
      answer(reviewOf(70, 'Brand voice', { ai_review_status: 'running', ai_review_error: null })),
    );
    renderRuns(['submit_for_approval']);
    expect(await screen.findByText('Brand voice’s review failed')).toBeInTheDocument();
    expect(
      screen.getByText('The AI provider is limiting requests (HTTP 429); try again in 30 seconds.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Legal/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(apiCalls.POST).toHaveBeenCalledWith(
      '/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_assignments/{review_assignment_id}/run_ai_review',
      { params: { path: { workspace_id: 3, email_id: 9, review_assignment_id: 70 } } },
    );
  });

  it('says a review is running, and offers no Try again to a role that cannot ask for reviews', async () => {
    apiCalls.GET.mockImplementation(() =>
      page([
        reviewOf(70, 'Brand voice', { ai_review_status: 'running', ai_review_error: null }),
        reviewOf(72, 'Tone', {
          ai_review_status: 'failed',
          ai_review_error: 'The AI provider had an error.',
        }),
      ]),
    );
    renderRuns([]);
    expect(await screen.findByText('Brand voice is reviewing the email…')).toBeInTheDocument();
    expect(screen.getByText('Tone’s review failed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
