import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkspacesPage } from './WorkspacesPage.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
vi.mock('@tanstack/react-router', () => ({ Link: 'a' }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  meQuery: { queryKey: ['me'] },
  useCan: () => (key: string) => granted.keys.includes(key),
}));

const stamp = { created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z' };
const main = { id: 1, name: 'Main workspace', auto_join: true, ...stamp };
const nordic = { id: 2, name: 'Nordic', auto_join: false, ...stamp };

const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });

let stored: (typeof main)[] = [];

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <WorkspacesPage />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return queryClient;
}

async function confirmDeleting(name: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Delete ${name}` }));
  const confirmation = await screen.findByRole('dialog', { name: 'Delete workspace' });
  expect(
    within(confirmation).getByText(`Delete “${name}”? Only a workspace without teams can be deleted.`),
  ).toBeInTheDocument();
  await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }));
}

describe('Settings › Workspaces', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['create_workspaces', 'update_workspaces', 'delete_workspaces'];
    stored = [main, nordic];
    apiCalls.GET.mockImplementation(() =>
      ok({ results: stored, pagination: { page: 1, per: 20, total: stored.length } }),
    );
    apiCalls.DELETE.mockImplementation((_path: string, { params }: { params: { path: { id: number } } }) => {
      stored = stored.filter((workspace) => workspace.id !== params.path.id);
      return ok(undefined);
    });
  });

  it('lists the workspaces with how people join them', async () => {
    renderPage();
    const mainRow = (await screen.findByText('Main workspace')).closest('tr') as HTMLElement;
    expect(within(mainRow).getByText('Everyone joins')).toBeInTheDocument();
    const nordicRow = screen.getByText('Nordic').closest('tr') as HTMLElement;
    expect(within(nordicRow).getByText('Members added by hand')).toBeInTheDocument();
  });

  it('deletes a workspace once confirmed, and refreshes the user’s own workspaces', async () => {
    const queryClient = renderPage();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await confirmDeleting('Nordic');

    expect(apiCalls.DELETE).toHaveBeenCalledWith('/api/v1/workspaces/{id}', { params: { path: { id: 2 } } });
    await waitFor(() => expect(screen.queryByText('Nordic')).toBeNull());
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['me'] });
    expect(notifications.show).toHaveBeenCalledWith(
      expect.objectContaining({ message: '“Nordic” was deleted.' }),
    );
  });

  it('keeps a workspace the API refuses to delete, and says why', async () => {
    apiCalls.DELETE.mockImplementation(() =>
      Promise.resolve({
        error: {
          message: 'Failed to delete',
          errors: { base: ['This workspace still has 1 team(s); move or delete them first'] },
        },
        response: { ok: false, status: 422 },
      }),
    );
    renderPage();
    await confirmDeleting('Nordic');

    await waitFor(() =>
      expect(notifications.show).toHaveBeenCalledWith({
        color: 'red',
        title: 'Could not delete the workspace',
        message: 'This workspace still has 1 team(s); move or delete them first',
      }),
    );
    expect(screen.getByText('Nordic')).toBeInTheDocument();
  });
});
