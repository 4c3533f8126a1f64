import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesignSystem } from '../design-systems/design-systems-api.ts';
import { BrandProfilesPanel } from './BrandProfilesPanel.tsx';
import type { BrandProfile } from './brand-overrides.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
}));

// The token overrides box grows with its text, listening for web fonts loading, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

const listPath =
  '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles';
const system = { id: 5, name: 'Starter', design_tokens: {}, custom_styles: [] } as unknown as DesignSystem;
const stamp = '2026-11-01T00:00:00.000Z';
const acme: BrandProfile = {
  id: 8,
  email_design_system_id: 5,
  name: 'Acme',
  design_tokens: { colors: { primary: '#D6336C' } },
  custom_styles: [],
  component_overrides: [
    { component_id: 1, hidden: true, field_overrides: [] },
    { component_id: 2, hidden: false, field_overrides: [{ liquid_variable: 'title', label: 'Heading' }] },
  ],
  created_at: stamp,
  updated_at: stamp,
};

const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });

function serve(profiles: BrandProfile[]) {
  let stored = [...profiles];
  apiCalls.GET.mockImplementation((path: string) =>
    ok(
      path === listPath
        ? { results: stored, pagination: { page: 1, per: 20, total: stored.length } }
        : { results: [], pagination: { page: 1, per: 100, total: 0 } },
    ),
  );
  apiCalls.DELETE.mockImplementation((_path: string, { params }: { params: { path: { id: number } } }) => {
    stored = stored.filter((profile) => profile.id !== params.path.id);
    return ok(undefined);
  });
}

function renderPanel(editable = true) {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ModalsProvider>
          <BrandProfilesPanel workspaceId={3} system={system} editable={editable} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('BrandProfilesPanel', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['create_brand_profiles', 'update_brand_profiles', 'delete_brand_profiles'];
    serve([acme]);
  });

  it('lists the profiles with what each overrides', async () => {
    renderPanel();
    const row = (await screen.findByText('Acme')).closest('tr') as HTMLElement;
    expect(
      within(row).getByText('1 token groups · 1 hidden components · 1 field overrides'),
    ).toBeInTheDocument();
    expect(apiCalls.GET).toHaveBeenCalledWith(listPath, {
      params: { path: { workspace_id: 3, email_design_system_id: 5 }, query: { page: 1, per: 20 } },
    });
  });

  it('creates a profile from the New brand profile form', async () => {
    apiCalls.POST.mockImplementation(() => ok({ ...acme, id: 9, name: 'Globex' }));
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'New brand profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'New brand profile' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Globex');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(apiCalls.POST).toHaveBeenCalledWith(listPath, {
        params: { path: { workspace_id: 3, email_design_system_id: 5 } },
        body: { name: 'Globex', design_tokens: {}, custom_styles: [], component_overrides: [] },
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New brand profile' })).toBeNull());
  });

  it('opens a profile read-only where the design system cannot be changed', async () => {
    renderPanel(false);
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Acme' }));
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acme' });
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveAttribute('readonly');
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New brand profile' })).toBeNull();
  });

  it('deletes a profile only once the deletion is confirmed, and lists the rest', async () => {
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Acme' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Delete Acme?' });
    expect(
      within(confirmation).getByText(
        'Emails made with this brand fall back to the design system as it is. This cannot be undone.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    expect(apiCalls.DELETE).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Acme' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Acme?' })).getByRole('button', {
        name: 'Delete brand profile',
      }),
    );
    expect(apiCalls.DELETE).toHaveBeenCalledWith(`${listPath}/{id}`, {
      params: { path: { workspace_id: 3, email_design_system_id: 5, id: 8 } },
    });
    expect(await screen.findByText('No brand profiles yet')).toBeInTheDocument();
  });
});
