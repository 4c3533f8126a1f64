import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TeamsPage } from './TeamsPage.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
vi.mock('@tanstack/react-router', () => ({ Link: 'a' }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
}));

const stamp = { created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z' };
const lifecycle = { id: 4, name: 'Lifecycle', workspace_id: 1, badge_color: 'orange', ...stamp };
const workspaces = [{ id: 1, name: 'Nordic', auto_join: false, ...stamp }];

const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });
const page = (results: unknown[]) => ({ results, pagination: { page: 1, per: 20, total: results.length } });

function serve(teams: unknown[]) {
  let stored = [...teams];
  apiCalls.GET.mockImplementation((path: string) => ok(page(path === '/api/v1/teams' ? stored : workspaces)));
  apiCalls.DELETE.mockImplementation((_path: string, { params }: { params: { path: { id: number } } }) => {
    stored = stored.filter((team) => (team as { id: number }).id !== params.path.id);
    return ok(undefined);
  });
}

function renderPage() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ModalsProvider>
          <TeamsPage />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('Settings › Teams', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['create_teams', 'update_teams', 'delete_teams'];
    serve([lifecycle]);
  });

  it('lists the teams with their workspace', async () => {
    renderPage();
    const row = (await screen.findByText('Lifecycle')).closest('tr') as HTMLElement;
    expect(await within(row).findByText('Nordic')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Members' })).toBeInTheDocument();
  });

  it('deletes a team once confirmed, and then says there are none', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Lifecycle' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Delete team' });
    expect(within(confirmation).getByText('Delete the team “Lifecycle”?')).toBeInTheDocument();
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }));

    expect(apiCalls.DELETE).toHaveBeenCalledWith('/api/v1/teams/{id}', { params: { path: { id: 4 } } });
    expect(await screen.findByText('No teams yet')).toBeInTheDocument();
    expect(notifications.show).toHaveBeenCalledWith(
      expect.objectContaining({ message: '“Lifecycle” was deleted.' }),
    );
  });

  it('keeps the team when the deletion is cancelled', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Lifecycle' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Delete team' });
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Cancel' }));

    expect(apiCalls.DELETE).not.toHaveBeenCalled();
    expect(screen.getByText('Lifecycle')).toBeInTheDocument();
  });

  it('offers only Members to someone who may neither change nor delete teams', async () => {
    granted.keys = [];
    renderPage();
    const row = (await screen.findByText('Lifecycle')).closest('tr') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Members']);
    expect(screen.queryByRole('button', { name: 'New team' })).toBeNull();
  });
});
