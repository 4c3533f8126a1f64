import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { InviteUserModal } from './InviteUserModal.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));

const stamp = { created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z' };
const lists: Record<string, unknown[]> = {
  '/api/v1/roles': [
    { id: 3, name: 'Editor', role_permissions: ['create_emails'], builtin: true, ...stamp },
    { id: 4, name: 'Admin', role_permissions: ['create_emails', 'update_roles'], builtin: true, ...stamp },
  ],
  '/api/v1/workspaces': [
    { id: 1, name: 'Marketing', auto_join: false, ...stamp },
    { id: 2, name: 'Product', auto_join: false, ...stamp },
  ],
  '/api/v1/teams': [
    { id: 11, name: 'Newsletter', workspace_id: 1, badge_color: 'blue', ...stamp },
    { id: 12, name: 'Promotions', workspace_id: 1, badge_color: 'red', ...stamp },
    { id: 21, name: 'Release notes', workspace_id: 2, badge_color: 'teal', ...stamp },
  ],
};

function ok(body: unknown) {
  return Promise.resolve({ data: body, error: undefined, response: { ok: true, status: 200 } });
}

function renderModal(heldKeys: readonly string[] = ['create_users', 'create_emails']) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onInvited = vi.fn();
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <InviteUserModal opened heldKeys={heldKeys} onClose={() => {}} onInvited={onInvited} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onInvited;
}

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('InviteUserModal', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
    apiCalls.GET.mockImplementation((path: string) => {
      const results = lists[path] ?? [];
      return ok({ results, pagination: { page: 1, per: 100, total: results.length } });
    });
  });

  it('offers the teams of the chosen workspaces only, and sends the teams chosen', async () => {
    apiCalls.POST.mockReturnValue(ok({ id: 99 }));
    const onInvited = renderModal();
    const teams = screen.getByRole('combobox', { name: 'Teams' });
    expect(teams).toBeDisabled();

    await choose('Workspaces', 'Product');
    await choose('Workspaces', 'Marketing');
    await userEvent.click(teams);
    const listbox = await screen.findByRole('listbox', { name: 'Teams' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Newsletter', 'Promotions', 'Release notes']);
    await userEvent.click(within(listbox).getByRole('option', { name: 'Release notes' }));
    await userEvent.click(within(listbox).getByRole('option', { name: 'Newsletter' }));

    // Dropping a workspace drops the teams chosen in it.
    await choose('Workspaces', 'Marketing');
    await choose('Workspaces', 'Marketing');

    await userEvent.type(screen.getByRole('textbox', { name: 'First name' }), 'Edith');
    await userEvent.type(screen.getByRole('textbox', { name: 'Last name' }), 'Editor');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'edith@example.com');
    await userEvent.click(screen.getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Editor' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));

    await vi.waitFor(() => expect(onInvited).toHaveBeenCalled());
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/users', {
      body: expect.objectContaining({ workspace_ids: [2, 1], team_ids: [21] }),
    });
  });

  it("offers only roles within the inviter's own keys, and shows a refusal above the form", async () => {
    apiCalls.POST.mockReturnValue(
      Promise.resolve({
        data: undefined,
        error: {
          message: 'You cannot give the role “Editor”: it grants keys you do not hold (create_emails)',
        },
        response: { ok: false, status: 403 },
      }),
    );
    renderModal(['create_users', 'create_emails']);
    await userEvent.click(screen.getByRole('combobox', { name: 'Role' }));
    expect(await screen.findByRole('option', { name: 'Admin (holds keys you do not)' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await userEvent.click(screen.getByRole('option', { name: 'Editor' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'First name' }), 'Edith');
    await userEvent.type(screen.getByRole('textbox', { name: 'Last name' }), 'Editor');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'edith@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You cannot give the role “Editor”: it grants keys you do not hold (create_emails)',
    );
  });
});
