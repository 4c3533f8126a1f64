import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProjectFormModal } from './ProjectFormModal.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
}));

// The description box grows with its text, listening for web fonts loading, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

const stamp = { created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z' };
let teams: unknown[] = [];
const workspaces = [{ id: 1, name: 'Main workspace', auto_join: true, ...stamp }];

function ok(body: unknown) {
  return Promise.resolve({ data: body, error: undefined, response: { ok: true, status: 200 } });
}
const page = (results: unknown[]) => ({ results, pagination: { page: 1, per: 100, total: results.length } });

function renderDialog(onSaved = vi.fn()) {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ProjectFormModal workspaceId={1} project={null} opened onClose={() => {}} onSaved={onSaved} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onSaved;
}

describe('ProjectFormModal', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['create_projects', 'create_teams'];
    apiCalls.GET.mockImplementation((path: string) =>
      ok(
        path === '/api/v1/teams' ? page(teams) : path === '/api/v1/workspaces' ? page(workspaces) : page([]),
      ),
    );
    apiCalls.POST.mockImplementation((path: string, { body }: { body: Record<string, unknown> }) => {
      if (path === '/api/v1/teams') {
        const team = { id: 9, ...body, ...stamp };
        teams = [...teams, team];
        return ok(team);
      }
      return ok({ id: 30, ...body, description: null, ...stamp });
    });
  });

  it('chooses the workspace’s only team for a new project', async () => {
    teams = [{ id: 4, name: 'Acme', workspace_id: 1, badge_color: 'blue', ...stamp }];
    const onSaved = renderDialog();
    await vi.waitFor(() => expect(screen.getByRole('combobox', { name: 'Team' })).toHaveValue('Acme'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Spring');
    await userEvent.click(screen.getByRole('button', { name: 'Create project' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/projects', {
      params: { path: { workspace_id: 1 } },
      body: { name: 'Spring', description: null, team_id: 4 },
    });
  });

  it('creates the first team from the dialog and comes back with it chosen', async () => {
    teams = [];
    renderDialog();
    await userEvent.click(await screen.findByRole('button', { name: 'Create the first team' }));
    const teamDialog = await screen.findByRole('dialog', { name: 'New team' });
    await userEvent.type(within(teamDialog).getByRole('textbox', { name: /Name/ }), 'Lifecycle');
    // The only workspace is already chosen.
    await vi.waitFor(() =>
      expect(within(teamDialog).getByRole('combobox', { name: /Workspace/ })).toHaveValue('Main workspace'),
    );
    await userEvent.click(within(teamDialog).getByRole('button', { name: 'Create team' }));
    const projectDialog = await screen.findByRole('dialog', { name: 'New project' });
    await vi.waitFor(() =>
      expect(within(projectDialog).getByRole('combobox', { name: 'Team' })).toHaveValue('Lifecycle'),
    );
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/teams', {
      body: { name: 'Lifecycle', workspace_id: 1, badge_color: 'blue' },
    });
  });

  it('tells someone who cannot create teams whom to ask', async () => {
    granted.keys = ['create_projects'];
    teams = [];
    renderDialog();
    expect(await screen.findByText(/Ask someone who manages teams/)).toBeVisible();
    expect(screen.queryByRole('button', { name: /team/i })).toBeNull();
  });
});
