import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SubmitForApprovalModal } from './SubmitForApprovalModal.tsx';
import { submitPayload } from './submit-payload.ts';

vi.mock('./review-api.ts', () => ({
  reviewGroupsQuery: () => ({
    queryKey: ['review_groups'],
    queryFn: async () => [{ id: 42, name: 'Brand and legal', reusable: true, stages: [] }],
  }),
  workspaceMembersQuery: () => ({
    queryKey: ['members'],
    queryFn: async () => [
      { id: 2, first_name: 'Bea', last_name: 'Reviewer', workspace_ids: [1] },
      { id: 3, first_name: 'Carl', last_name: 'Checker', workspace_ids: [1] },
    ],
  }),
}));

describe('submitPayload', () => {
  it('sends a group id, stages with their members, or a resubmission', () => {
    expect(submitPayload({ mode: 'group', groupId: 42 })).toEqual({ body: { review_group_id: 42 } });
    expect(submitPayload({ mode: 'group', groupId: null })).toEqual({ error: 'Choose a review group' });
    expect(
      submitPayload({
        mode: 'stages',
        stages: [
          { key: 'a', approval_type: 'one_of', user_ids: [2] },
          { key: 'b', approval_type: 'all_of', user_ids: [3, 4] },
        ],
      }),
    ).toEqual({
      body: {
        stages: [
          { approval_type: 'one_of', members: [{ user_id: 2 }] },
          { approval_type: 'all_of', members: [{ user_id: 3 }, { user_id: 4 }] },
        ],
      },
    });
    expect(
      submitPayload({ mode: 'stages', stages: [{ key: 'a', approval_type: 'one_of', user_ids: [] }] }),
    ).toEqual({ error: 'Choose at least one reviewer for stage 1' });
    expect(submitPayload({ mode: 'continue' })).toEqual({ body: { resubmission: true } });
  });
});

describe('SubmitForApprovalModal', () => {
  function renderModal(onSubmit = vi.fn(async () => {})) {
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={new QueryClient()}>
          <SubmitForApprovalModal
            workspaceId={1}
            opened
            onClose={() => {}}
            onSubmit={onSubmit}
            continuable={null}
          />
        </QueryClientProvider>
      </MantineProvider>,
    );
    return onSubmit;
  }

  it('submits the reviewers picked for each stage', async () => {
    const onSubmit = renderModal();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Stage 1 reviewers' }));
    await user.click(await screen.findByRole('option', { name: 'Bea Reviewer' }));
    await user.click(screen.getByRole('button', { name: 'Add stage' }));
    await user.click(screen.getByRole('combobox', { name: 'Stage 2 reviewers' }));
    await user.click(await screen.findByRole('option', { name: 'Carl Checker' }));
    await user.click(screen.getAllByText('All must approve')[1] as HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith({
      stages: [
        { approval_type: 'one_of', members: [{ user_id: 2 }] },
        { approval_type: 'all_of', members: [{ user_id: 3 }] },
      ],
    });
  });

  it('says what is missing instead of submitting an empty stage', async () => {
    const onSubmit = renderModal();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose at least one reviewer for stage 1');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
