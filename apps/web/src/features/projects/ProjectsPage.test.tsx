import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProjectsPage } from './ProjectsPage.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
vi.mock('@tanstack/react-router', () => ({ Link: 'a' }));
vi.mock('../shell/workspace.ts', () => ({ useWorkspaceId: () => 1 }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
}));

const projectPath = '/api/v1/workspaces/{workspace_id}/projects/{id}';
const stamp = { created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z' };
const team = { id: 4, name: 'Lifecycle', workspace_id: 1, badge_color: 'orange', ...stamp };
const spring = { id: 7, name: 'Spring', description: 'Seasonal sends', team_id: 4, team, ...stamp };

const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });

let stored: (typeof spring)[] = [];

function renderPage() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ModalsProvider>
          <ProjectsPage />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

async function deleteFromMenu(name: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
  const confirmation = await screen.findByRole('dialog', { name: `Delete ${name}?` });
  await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete project' }));
}

describe('Projects', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['create_projects', 'update_projects', 'delete_projects'];
    stored = [spring];
    apiCalls.GET.mockImplementation(() =>
      ok({ results: stored, pagination: { page: 1, per: 20, total: stored.length } }),
    );
    apiCalls.DELETE.mockImplementation(() => {
      stored = [];
      return ok(undefined);
    });
  });

  it('lists the projects with their team and description', async () => {
    renderPage();
    const row = (await screen.findByText('Spring')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Lifecycle')).toBeInTheDocument();
    expect(within(row).getByText('Seasonal sends')).toBeInTheDocument();
  });

  it('deletes a project once confirmed, and then says there are none', async () => {
    renderPage();
    await deleteFromMenu('Spring');

    expect(apiCalls.DELETE).toHaveBeenCalledWith(projectPath, {
      params: { path: { workspace_id: 1, id: 7 }, query: { delete_emails: false } },
    });
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
  });

  it('asks again before deleting a project that still has emails, with its emails', async () => {
    apiCalls.DELETE.mockImplementationOnce(() =>
      Promise.resolve({
        error: { message: 'The project has 3 emails.' },
        response: { ok: false, status: 422 },
      }),
    );
    renderPage();
    await deleteFromMenu('Spring');
    const second = await screen.findByRole('dialog', { name: 'Delete its emails too?' });
    expect(
      within(second).getByText(
        'The project has 3 emails. Deleting the project deletes these emails as well.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(second).getByRole('button', { name: 'Delete project and emails' }));

    await waitFor(() =>
      expect(apiCalls.DELETE).toHaveBeenLastCalledWith(projectPath, {
        params: { path: { workspace_id: 1, id: 7 }, query: { delete_emails: true } },
      }),
    );
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
  });

  it('offers no row menu to someone who may neither change nor delete projects', async () => {
    granted.keys = [];
    renderPage();
    expect(await screen.findByText('Spring')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for Spring' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New project' })).toBeNull();
  });
});
