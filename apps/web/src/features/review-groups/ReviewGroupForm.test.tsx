import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ReviewGroupForm } from './ReviewGroupForm.tsx';
import type { ReviewGroup } from './review-groups-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));

const people = [
  { id: 5, first_name: 'Rita', last_name: 'Reviewer', email: 'rita@example.com', profile_image_url: null },
  { id: 6, first_name: 'Sam', last_name: 'Legal', email: 'sam@example.com', profile_image_url: null },
  { id: 7, first_name: 'Tom', last_name: 'Brand', email: 'tom@example.com', profile_image_url: null },
];

function answer(status: number, body: unknown) {
  const ok = status < 300;
  return Promise.resolve({
    data: ok ? body : undefined,
    error: ok ? undefined : body,
    response: { ok, status },
  });
}

const stamp = '2026-11-01T00:00:00.000Z';
const reference = (id: number) => {
  const person = people.find((candidate) => candidate.id === id);
  if (!person) throw new Error(`no person ${id}`);
  const { email: _email, ...user } = person;
  return user;
};
const existing: ReviewGroup = {
  id: 40,
  name: 'Legal then brand',
  reusable: true,
  stages: [
    { id: 11, position: 1, approval_type: 'one_of', members: [{ id: 101, user_id: 5, user: reference(5) }] },
    {
      id: 12,
      position: 2,
      approval_type: 'all_of',
      members: [
        { id: 102, user_id: 6, user: reference(6) },
        { id: 103, user_id: 7, user: reference(7) },
      ],
    },
  ],
  created_at: stamp,
  updated_at: stamp,
};

function renderForm(group: ReviewGroup | null, readOnly = false) {
  const onClose = vi.fn();
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ReviewGroupForm group={group} readOnly={readOnly} onClose={onClose} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onClose;
}

const stage = (number: number) => screen.getByRole('region', { name: `Stage ${number}` });
/** The names on a stage's chosen-member pills. */
const membersOf = (number: number) =>
  [...stage(number).querySelectorAll('.mantine-Pill-label')].map((pill) => pill.textContent);

async function chooseMember(stageNumber: number, name: string) {
  const picker = within(stage(stageNumber)).getByRole('combobox', {
    name: `Members of stage ${stageNumber}`,
  });
  await userEvent.click(picker);
  await userEvent.type(picker, name.slice(0, 3));
  await userEvent.click(await screen.findByRole('option', { name: new RegExp(name) }));
}

describe('ReviewGroupForm and its stages editor', { timeout: 30_000 }, () => {
  beforeEach(() => {
    for (const call of Object.values(apiCalls)) call.mockReset();
    apiCalls.GET.mockImplementation(
      (_path: string, { params }: { params: { query: { search?: string } } }) => {
        const search = params.query.search?.toLowerCase() ?? '';
        const results = people.filter((person) =>
          `${person.first_name} ${person.last_name} ${person.email}`.toLowerCase().includes(search),
        );
        return answer(200, { results, pagination: { page: 1, per: 20, total: results.length } });
      },
    );
  });

  it('creates a group: stages added, their approval chosen, members picked, sent in order', async () => {
    apiCalls.POST.mockReturnValue(answer(200, { ...existing, id: 41 }));
    const onClose = renderForm(null);
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Two steps');
    await chooseMember(1, 'Rita');
    await userEvent.click(screen.getByRole('button', { name: 'Add stage' }));
    await userEvent.click(within(stage(2)).getByText('Every member approves'));
    await chooseMember(2, 'Sam');
    await chooseMember(2, 'Tom');
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));

    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/review_groups', {
      body: {
        name: 'Two steps',
        stages: [
          { position: 1, approval_type: 'one_of', members: [{ user_id: 5 }] },
          { position: 2, approval_type: 'all_of', members: [{ user_id: 6 }, { user_id: 7 }] },
        ],
      },
    });
  });

  it('reorders stages with the move buttons and sends the kept ids, leaving out removed members', async () => {
    apiCalls.PATCH.mockReturnValue(answer(200, existing));
    const onClose = renderForm(existing);
    expect(membersOf(1)).toEqual(['Rita Reviewer']);
    expect(screen.getByRole('button', { name: 'Move stage 1 up' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Move stage 2 up' }));
    // The all_of stage of Sam and Tom is first now.
    expect(membersOf(1)).toEqual(['Sam Legal', 'Tom Brand']);
    expect(within(stage(1)).getByRole('radio', { name: 'Every member approves' })).toBeChecked();
    // Take Tom (the last chosen) out of it, and switch the second stage to every member.
    await userEvent.click(within(stage(1)).getByRole('combobox', { name: 'Members of stage 1' }));
    await userEvent.keyboard('{Backspace}');
    expect(membersOf(1)).toEqual(['Sam Legal']);
    await userEvent.click(within(stage(2)).getByText('Every member approves'));
    await userEvent.click(screen.getByRole('button', { name: 'Save group' }));

    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(apiCalls.PATCH).toHaveBeenCalledWith('/api/v1/review_groups/{id}', {
      params: { path: { id: 40 } },
      body: {
        name: 'Legal then brand',
        stages: [
          { id: 12, position: 1, approval_type: 'all_of', members: [{ id: 102, user_id: 6 }] },
          { id: 11, position: 2, approval_type: 'all_of', members: [{ id: 101, user_id: 5 }] },
        ],
      },
    });
  });

  it('removes a stage, but never the last one, and says why', async () => {
    renderForm(existing);
    await userEvent.click(screen.getByRole('button', { name: 'Remove stage 1' }));
    expect(screen.queryByRole('region', { name: 'Stage 2' })).not.toBeInTheDocument();
    expect(membersOf(1)).toEqual(['Sam Legal', 'Tom Brand']);
    const remove = screen.getByRole('button', { name: 'Remove stage 1' });
    expect(remove).toBeDisabled();
  });

  it('checks names and members before asking, and shows the API’s 422 at the stage it names', async () => {
    renderForm(null);
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(await screen.findByText('Give the group a name')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one member')).toBeInTheDocument();
    expect(apiCalls.POST).not.toHaveBeenCalled();

    apiCalls.POST.mockReturnValue(
      answer(422, {
        message: 'Failed to save',
        errors: {
          name: ['is already taken by another review group'],
          'stages.0.members.0.user_id': ['is not a user of this organization'],
        },
      }),
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Brand');
    await chooseMember(1, 'Rita');
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(await screen.findByText('is already taken by another review group')).toBeInTheDocument();
    expect(
      within(stage(1)).getByText('Rita Reviewer is not a user of this organization'),
    ).toBeInTheDocument();
  });

  it('shows a group read-only without the permission to change it', () => {
    renderForm(existing, true);
    expect(screen.queryByRole('button', { name: 'Save group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add stage' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move stage 2 up' })).not.toBeInTheDocument();
    expect(screen.getByText(/takes the manage review groups permission/)).toBeInTheDocument();
  });
});
