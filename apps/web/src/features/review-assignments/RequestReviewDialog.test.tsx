import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../app/session.ts';
import { RequestReviewDialog } from './RequestReviewDialog.tsx';
import type { ReviewAssignment } from './review-assignments-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));

function answer(status: number, body: unknown) {
  const ok = status < 300;
  return Promise.resolve({
    data: ok ? body : undefined,
    error: ok ? undefined : body,
    response: { ok, status },
  });
}
const page = (results: unknown[]) =>
  answer(200, { results, pagination: { page: 1, per: 100, total: results.length } });

const ada = { id: 1, first_name: 'Ada', last_name: 'Admin', profile_image_url: null };
const rita = {
  id: 5,
  first_name: 'Rita',
  last_name: 'Reviewer',
  email: 'rita@example.com',
  profile_image_url: null,
};
const assignment = (
  id: number,
  assignee: ReviewAssignment['assignee'],
  type: ReviewAssignment['assignee_type'],
  review: Pick<ReviewAssignment, 'ai_review_status' | 'ai_review_error'> = {
    ai_review_status: type === 'AiReviewer' ? 'done' : null,
    ai_review_error: null,
  },
): ReviewAssignment => ({
  id,
  email_id: 9,
  assignee_id: assignee.id,
  assignee_type: type,
  assignee,
  assigned_by_id: ada.id,
  assigned_by: ada,
  ...review,
  created_at: '2026-11-01T00:00:00.000Z',
});

let assignments: ReviewAssignment[] = [];

function renderDialog(permissions: string[] = ['submit_for_approval']) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['me'], { permissions } as unknown as Me);
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RequestReviewDialog workspaceId={3} emailId={9} opened onClose={() => {}} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('RequestReviewDialog', { timeout: 30_000 }, () => {
  beforeEach(() => {
    for (const call of Object.values(apiCalls)) call.mockReset();
    assignments = [assignment(70, { id: 12, name: 'Brand voice' }, 'AiReviewer')];
    apiCalls.GET.mockImplementation((path: string) => {
      if (path.endsWith('/review_assignments')) return page(assignments);
      if (path === '/api/v1/users') return page([rita]);
      if (path === '/api/v1/roles') return page([{ id: 4, name: 'Reviewers' }]);
      if (path.endsWith('/ai_reviewers')) return page([{ id: 12, name: 'Brand voice' }]);
      throw new Error(`unexpected GET ${path}`);
    });
  });

  it('lists who is asked, and asks a person found by search', async () => {
    apiCalls.POST.mockImplementation(() => {
      const created = assignment(71, { ...rita, name: 'Rita Reviewer' }, 'User');
      assignments = [...assignments, created];
      return answer(200, created);
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Ask for a review' });
    expect(await within(dialog).findByText('Brand voice')).toBeInTheDocument();
    expect(within(dialog).getByText('Asked by Ada Admin')).toBeInTheDocument();

    const person = within(dialog).getByRole('combobox', { name: 'Person' });
    await userEvent.click(person);
    await userEvent.type(person, 'rit');
    await userEvent.click(await screen.findByRole('option', { name: 'Rita Reviewer (rita@example.com)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ask' }));

    await vi.waitFor(() =>
      expect(apiCalls.POST).toHaveBeenCalledWith(
        '/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_assignments',
        {
          params: { path: { workspace_id: 3, email_id: 9 } },
          body: { assignee_type: 'User', assignee_id: 5 },
        },
      ),
    );
    expect(await within(dialog).findByText('Rita Reviewer')).toBeInTheDocument();
  });

  it('asks a role, and shows the API’s refusal at the picker', async () => {
    apiCalls.POST.mockReturnValue(
      answer(422, {
        message: 'Failed to save',
        errors: { assignee_id: ['is already asked to review this email'] },
      }),
    );
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Ask for a review' });
    await userEvent.click(within(dialog).getByText('A role'));
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Reviewers' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ask' }));
    expect(await within(dialog).findByText('is already asked to review this email')).toBeInTheDocument();
    expect(apiCalls.POST).toHaveBeenCalledWith(expect.any(String), {
      params: { path: { workspace_id: 3, email_id: 9 } },
      body: { assignee_type: 'Role', assignee_id: 4 },
    });
  });

  it('withdraws a request', async () => {
    apiCalls.DELETE.mockImplementation(() => {
      assignments = [];
      return answer(204, null);
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Ask for a review' });
    await userEvent.click(
      await within(dialog).findByRole('button', { name: 'Withdraw the request to Brand voice' }),
    );
    expect(apiCalls.DELETE).toHaveBeenCalledWith(
      '/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_assignments/{review_assignment_id}',
      { params: { path: { workspace_id: 3, email_id: 9, review_assignment_id: 70 } } },
    );
    expect(await within(dialog).findByText('Nobody is asked yet.')).toBeInTheDocument();
  });

  it('shows an AI review running, then failed with its reason, and runs it again', async () => {
    assignments = [
      assignment(70, { id: 12, name: 'Brand voice' }, 'AiReviewer', {
        ai_review_status: 'running',
        ai_review_error: null,
      }),
    ];
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Ask for a review' });
    expect(await within(dialog).findByText('Reviewing…')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Run Brand voice’s review again' })).toBeNull();

    // The list is looked at again while a review runs: here it has failed meanwhile.
    const refusal =
      'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.';
    assignments = [
      assignment(70, { id: 12, name: 'Brand voice' }, 'AiReviewer', {
        ai_review_status: 'failed',
        ai_review_error: refusal,
      }),
    ];
    expect(await within(dialog).findByText(refusal, undefined, { timeout: 5_000 })).toBeInTheDocument();
    expect(within(dialog).getByText('Review failed')).toBeInTheDocument();

    apiCalls.POST.mockImplementation(() => {
      assignments = [
        assignment(70, { id: 12, name: 'Brand voice' }, 'AiReviewer', {
          ai_review_status: 'running',
          ai_review_error: null,
        }),
      ];
      return answer(200, assignments[0]);
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Run Brand voice’s review again' }));
    expect(apiCalls.POST).toHaveBeenCalledWith(
      '/api/v1/workspaces/{workspace_id}/emails/{email_id}/review_assignments/{review_assignment_id}/run_ai_review',
      { params: { path: { workspace_id: 3, email_id: 9, review_assignment_id: 70 } } },
    );
    expect(await within(dialog).findByText('Reviewing…')).toBeInTheDocument();
  });

  it('asks an AI reviewer, which starts reviewing', async () => {
    assignments = [];
    apiCalls.POST.mockImplementation(() => {
      const created = assignment(72, { id: 12, name: 'Brand voice' }, 'AiReviewer', {
        ai_review_status: 'running',
        ai_review_error: null,
      });
      assignments = [created];
      return answer(200, created);
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Ask for a review' });
    await userEvent.click(within(dialog).getByText('An AI reviewer'));
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'AI reviewer' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Brand voice' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ask' }));
    expect(apiCalls.POST).toHaveBeenCalledWith(expect.any(String), {
      params: { path: { workspace_id: 3, email_id: 9 } },
      body: { assignee_type: 'AiReviewer', assignee_id: 12 },
    });
    expect(await within(dialog).findByText('Reviewing…')).toBeInTheDocument();
  });

  it('without submit_for_approval, shows who is asked but cannot ask or withdraw, and says why', async () => {
    renderDialog([]);
    const dialog = await screen.findByRole('dialog', { name: 'Ask for a review' });
    expect(await within(dialog).findByText('Brand voice')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Ask' })).toBeDisabled();
    expect(
      within(dialog).getByRole('button', { name: 'Withdraw the request to Brand voice' }),
    ).toBeDisabled();
    expect(within(dialog).getByText('Review done')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Run Brand voice’s review again' })).toBeDisabled();
    expect(
      within(dialog).getByText('Asking for reviews takes the submit for approval permission.'),
    ).toBeInTheDocument();
  });
});
