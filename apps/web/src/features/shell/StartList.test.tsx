import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { StartList } from './StartList.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
  useMe: () => ({ user: { id: 1 }, permissions: granted.keys }),
}));
const navigate = vi.hoisted(() => vi.fn());
vi.mock('@tanstack/react-router', () => ({ useNavigate: () => navigate }));

/** How many rows each list has, by API path. */
let totals: Record<string, number> = {};

function renderList() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <StartList workspaceId={3} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const everything = ['create_projects', 'create_emails', 'create_users', 'create_connectors'];

describe('StartList', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = everything;
    apiCalls.GET.mockImplementation((path: string) => {
      const total = totals[path] ?? 0;
      const results = Array.from({ length: Math.min(total, 1) }, (_, index) => ({
        id: 40 + index,
        name: 'Only',
      }));
      return Promise.resolve({
        data: { results, pagination: { page: 1, per: 1, total } },
        error: undefined,
        response: { ok: true, status: 200 },
      });
    });
  });

  it('ticks off each step from the lists’ totals: a project, an email, a second person, a connector', async () => {
    totals = {
      '/api/v1/workspaces/{workspace_id}/projects': 1,
      '/api/v1/workspaces/{workspace_id}/emails': 0,
      '/api/v1/users': 1,
      '/api/v1/workspaces/{workspace_id}/connectors': 1,
    };
    renderList();
    const list = await screen.findByRole('region', { name: 'Get started' });
    expect(await within(list).findByText('2 of 4 done')).toBeVisible();
    expect(within(list).getByRole('listitem', { name: 'Create a project (done)' })).toBeVisible();
    expect(within(list).getByRole('listitem', { name: 'Create an email' })).toBeVisible();
    // Only the Admin so far: inviting is still to do.
    expect(within(list).getByRole('listitem', { name: 'Invite people' })).toBeVisible();
    expect(within(list).getByRole('listitem', { name: 'Connect a sending platform (done)' })).toBeVisible();

    // The only project is where the email goes: the button opens the new-email dialog for it.
    expect(apiCalls.GET).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/projects', {
      params: { path: { workspace_id: 3 }, query: { per: 1 } },
    });
    await userEvent.click(within(list).getByRole('button', { name: 'New email' }));
    expect(await screen.findByRole('dialog', { name: 'New email' })).toBeVisible();
  });

  it('waits for a project before an email can be made, and says so', async () => {
    totals = {};
    renderList();
    const list = await screen.findByRole('region', { name: 'Get started' });
    expect(await within(list).findByText('0 of 4 done')).toBeVisible();
    expect(within(list).getByText('Create a project first: every email belongs to one.')).toBeVisible();
    expect(within(list).getByRole('button', { name: 'New email' })).toBeDisabled();
  });

  it('goes to the connectors page to connect a platform', async () => {
    totals = {};
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: 'Connect a platform' }));
    expect(navigate).toHaveBeenCalledWith({
      to: '/workspaces/$workspaceId/connectors',
      params: { workspaceId: '3' },
    });
  });

  it('lists only what the role allows, and goes away once all of it is done', async () => {
    granted.keys = ['create_emails'];
    totals = {
      '/api/v1/workspaces/{workspace_id}/projects': 2,
      '/api/v1/workspaces/{workspace_id}/emails': 0,
    };
    renderList();
    const list = await screen.findByRole('region', { name: 'Get started' });
    expect(await within(list).findByText('0 of 1 done')).toBeVisible();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    // Several projects: the person chooses one on the projects page.
    await userEvent.click(within(list).getByRole('button', { name: 'Choose a project' }));
    expect(navigate).toHaveBeenCalledWith({
      to: '/workspaces/$workspaceId/projects',
      params: { workspaceId: '3' },
    });
    expect(apiCalls.GET).not.toHaveBeenCalledWith('/api/v1/users', expect.anything());
  });

  it('shows nothing when every step is done', async () => {
    totals = {
      '/api/v1/workspaces/{workspace_id}/projects': 1,
      '/api/v1/workspaces/{workspace_id}/emails': 5,
      '/api/v1/users': 3,
      '/api/v1/workspaces/{workspace_id}/connectors': 1,
    };
    renderList();
    await vi.waitFor(() => expect(apiCalls.GET).toHaveBeenCalledTimes(4));
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull());
  });
});
