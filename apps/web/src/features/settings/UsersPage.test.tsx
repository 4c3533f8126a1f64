import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from './settings-api.ts';
import { UsersPage } from './UsersPage.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
  useMe: () => ({ user: { id: 1 }, permissions: granted.keys }),
}));
vi.mock('../../shared/PageHeader.tsx', () => ({
  PageHeader: ({ title, actions }: { title: string; actions?: React.ReactNode }) => (
    <header>
      <h1>{title}</h1>
      {actions}
    </header>
  ),
}));

const stamp = '2026-11-01T00:00:00.000Z';
const person = (id: number, fields: Partial<User>): User => ({
  id,
  first_name: `Person${id}`,
  last_name: 'Example',
  email: `person${id}@example.com`,
  profile_image_url: null,
  wants_marketing_emails: false,
  two_factor_enabled: false,
  disabled_email_notifications: [],
  role_id: 2,
  role_name: 'Editor',
  workspace_ids: [],
  team_ids: [],
  invitation_sent_at: null,
  invitation_accepted_at: null,
  invitation_expires_at: null,
  invitation_state: 'active',
  created_at: stamp,
  updated_at: stamp,
  ...fields,
});

function answer(results: unknown[]) {
  return Promise.resolve({
    data: { results, pagination: { page: 1, per: 20, total: results.length } },
    error: undefined,
    response: { ok: true, status: 200 },
  });
}

function renderPage() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <UsersPage />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('UsersPage', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['create_users'];
  });

  it('shows every person’s role and whether they joined, are invited or let the invitation expire', async () => {
    const users = [
      person(1, { first_name: 'Ada', role_id: 1, role_name: 'Admin', invitation_accepted_at: stamp }),
      person(2, {
        first_name: 'Grace',
        role_name: 'Editor',
        invitation_sent_at: stamp,
        invitation_expires_at: '2026-11-08T00:00:00.000Z',
        invitation_state: 'invited',
      }),
      person(3, {
        first_name: 'Dorothy',
        role_id: 4,
        role_name: 'Viewer',
        invitation_sent_at: stamp,
        invitation_expires_at: '2026-11-02T00:00:00.000Z',
        invitation_state: 'invitation_expired',
      }),
    ];
    apiCalls.GET.mockImplementation((path: string) => answer(path === '/api/v1/users' ? users : []));
    renderPage();

    const row = async (name: string) =>
      within((await screen.findByText(new RegExp(`^${name} Example`))).closest('tr') as HTMLElement);
    expect((await row('Ada')).getByText('Admin')).toBeVisible();
    expect((await row('Ada')).getByText('Active')).toBeVisible();
    expect((await row('Grace')).getByText('Editor')).toBeVisible();
    expect((await row('Grace')).getByText('Invited (pending)')).toBeVisible();
    expect((await row('Dorothy')).getByText('Viewer')).toBeVisible();
    expect((await row('Dorothy')).getByText('Invitation expired')).toBeVisible();
  });

  it('sends a new invitation to someone whose link expired', async () => {
    granted.keys = ['create_users', 'create_emails'];
    const dorothy = person(3, {
      first_name: 'Dorothy',
      role_id: 4,
      role_name: 'Viewer',
      invitation_sent_at: stamp,
      invitation_expires_at: '2026-11-02T00:00:00.000Z',
      invitation_state: 'invitation_expired',
    });
    apiCalls.GET.mockImplementation((path: string) =>
      answer(
        path === '/api/v1/users'
          ? [dorothy]
          : path === '/api/v1/roles'
            ? [
                {
                  id: 4,
                  name: 'Viewer',
                  role_permissions: [],
                  builtin: true,
                  ...{ created_at: stamp, updated_at: stamp },
                },
              ]
            : [],
      ),
    );
    apiCalls.POST.mockResolvedValue({
      data: { ...dorothy, invitation_state: 'invited' },
      error: undefined,
      response: { ok: true, status: 200 },
    });
    renderPage();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Send Dorothy Example a new invitation' }),
    );
    await vi.waitFor(() =>
      expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/users/{id}/invitation', {
        params: { path: { id: 3 } },
      }),
    );
  });

  it('says what to do on an empty list, with a button that invites', async () => {
    apiCalls.GET.mockImplementation(() => answer([]));
    renderPage();
    expect(await screen.findByText('Nobody is here yet')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Invite someone' })).toBeVisible();
  });
});
