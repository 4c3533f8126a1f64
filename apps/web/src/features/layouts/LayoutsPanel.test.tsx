import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesignSystem } from '../design-systems/design-systems-api.ts';
import { LayoutsPanel } from './LayoutsPanel.tsx';
import type { Layout } from './layout-content.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
const navigate = vi.hoisted(() => vi.fn());
vi.mock('@tanstack/react-router', () => ({ Link: 'a', useNavigate: () => navigate }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
}));
// The thumbnail renders the layout with its design system; its own test covers it.
vi.mock('./LayoutThumbnail.tsx', () => ({
  LayoutThumbnail: ({ layout }: { layout: Layout }) => <span>Preview of {layout.name}</span>,
}));

const layoutsPath = '/api/v1/workspaces/{workspace_id}/layouts';
const system = { id: 5, name: 'Starter' } as DesignSystem;
const newsletter = {
  id: 9,
  name: 'Newsletter',
  email_design_system_id: 5,
  brand_profile_id: null,
  locales: ['en-US'],
  content: {
    container_component_instance: { id: 'c', component_id: 1, field_values: {} },
    component_instances: [{ id: 'h', component_id: 2, field_values: {} }],
  },
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
} as unknown as Layout;

const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });

function serve(layouts: Layout[]) {
  let stored = [...layouts];
  apiCalls.GET.mockImplementation((path: string) =>
    ok(
      path === layoutsPath
        ? { results: stored, pagination: { page: 1, per: 20, total: stored.length } }
        : {
            results: [
              { id: 1, name: 'container', label: 'Container', container: true, field_definitions: [] },
            ],
            pagination: { page: 1, per: 100, total: 1 },
          },
    ),
  );
  apiCalls.DELETE.mockImplementation((_path: string, { params }: { params: { path: { id: number } } }) => {
    stored = stored.filter((layout) => layout.id !== params.path.id);
    return ok(undefined);
  });
}

function renderPanel() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ModalsProvider>
          <LayoutsPanel workspaceId={3} system={system} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('LayoutsPanel', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['create_layouts', 'update_layouts', 'delete_layouts'];
    serve([newsletter]);
  });

  it('lists the design system’s layouts by name, each with its preview and component count', async () => {
    renderPanel();
    const row = (await screen.findByText('Newsletter')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Preview of Newsletter')).toBeInTheDocument();
    expect(within(row).getByText('1')).toBeInTheDocument();
    expect(apiCalls.GET).toHaveBeenCalledWith(layoutsPath, {
      params: {
        path: { workspace_id: 3 },
        query: { email_design_system_id: 5, page: 1, per: 20, sort: 'name_asc' },
      },
    });
  });

  it('starts an empty layout with the container and opens it in the editor', async () => {
    apiCalls.POST.mockImplementation(() => ok({ ...newsletter, id: 12, name: 'Blank' }));
    renderPanel();
    const create = await screen.findByRole('button', { name: 'New layout' });
    await waitFor(() => expect(create).toBeEnabled());
    await userEvent.click(create);
    const dialog = await screen.findByRole('dialog', { name: 'New layout' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Blank');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create and open' }));

    await waitFor(() =>
      expect(navigate).toHaveBeenCalledWith({
        to: '/workspaces/$workspaceId/layouts/$layoutId/edit',
        params: { workspaceId: '3', layoutId: '12' },
      }),
    );
    expect(apiCalls.POST).toHaveBeenCalledWith(layoutsPath, {
      params: { path: { workspace_id: 3 } },
      body: {
        name: 'Blank',
        email_design_system_id: 5,
        content: {
          container_component_instance: { id: expect.any(String), component_id: 1, field_values: {} },
          component_instances: [],
        },
      },
    });
  });

  it('offers the editor from the menu as a link, which can open in a new tab', async () => {
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Newsletter' }));
    const edit = await screen.findByRole('menuitem', { name: 'Edit in the editor' });
    expect(edit.tagName).toBe('A');
    expect(edit).toHaveAttribute('to', '/workspaces/$workspaceId/layouts/$layoutId/edit');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('renames a layout from its menu', async () => {
    apiCalls.PATCH.mockImplementation(() => ok({ ...newsletter, name: 'Monthly' }));
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Newsletter' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Newsletter' });
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Monthly');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(apiCalls.PATCH).toHaveBeenCalledWith(`${layoutsPath}/{id}`, {
        params: { path: { workspace_id: 3, id: 9 } },
        body: { name: 'Monthly' },
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename Newsletter' })).toBeNull());
  });

  it('deletes a layout once confirmed, and then says there are none', async () => {
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Newsletter' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Delete Newsletter?' });
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete layout' }));

    expect(apiCalls.DELETE).toHaveBeenCalledWith(`${layoutsPath}/{id}`, {
      params: { path: { workspace_id: 3, id: 9 } },
    });
    expect(await screen.findByText('No layouts for this design system')).toBeInTheDocument();
  });

  it('offers no row menu to someone who may neither change nor delete layouts', async () => {
    granted.keys = [];
    renderPanel();
    expect(await screen.findByText('Newsletter')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for Newsletter' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New layout' })).toBeNull();
  });
});
