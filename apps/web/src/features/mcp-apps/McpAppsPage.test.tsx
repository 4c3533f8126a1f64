import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { McpAppsPage } from './McpAppsPage.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
vi.mock('@tanstack/react-router', () => ({ Link: 'a' }));

// The redirect URIs box grows with its text, listening for web fonts loading, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

const registered = {
  id: 3,
  name: 'Claude',
  client_id: 'lsci_abc',
  redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
  created_by: { id: 1, first_name: 'Ada', last_name: 'Admin', profile_image_url: null },
  created_at: '2026-11-21T10:30:00.000Z',
  updated_at: '2026-11-21T10:30:00.000Z',
};

function renderPage() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <McpAppsPage />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('Settings › MCP apps', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
    apiCalls.PATCH.mockReset();
    apiCalls.GET.mockImplementation(() =>
      Promise.resolve({
        data: { results: [registered], pagination: { page: 1, per: 20, total: 1 } },
        response: { ok: true, status: 200 },
      }),
    );
  });

  it('lists the apps with their client ids', async () => {
    renderPage();
    expect(await screen.findByText('lsci_abc')).toBeInTheDocument();
    expect(screen.getByText('https://claude.ai/api/mcp/auth_callback')).toBeInTheDocument();
  });

  it('registers an app and shows its secret once, with the server URL and client id', async () => {
    apiCalls.POST.mockImplementation(() =>
      Promise.resolve({
        data: { ...registered, id: 4, client_id: 'lsci_new', client_secret: 'lscs_secret' },
        response: { ok: true, status: 200 },
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'New MCP app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Register an MCP app' });
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Claude');
    await userEvent.type(
      within(dialog).getByLabelText(/Redirect URIs/),
      'https://claude.ai/api/mcp/auth_callback\nhttps://claude.com/api/mcp/auth_callback',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register app' }));

    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/mcp_apps', {
      body: {
        name: 'Claude',
        redirect_uris: [
          'https://claude.ai/api/mcp/auth_callback',
          'https://claude.com/api/mcp/auth_callback',
        ],
      },
    });
    const shown = await screen.findByRole('dialog', { name: 'Claude is registered' });
    expect(within(shown).getByLabelText('Client secret')).toHaveTextContent('lscs_secret');
    expect(within(shown).getByLabelText('Client id')).toHaveTextContent('lsci_new');
    expect(within(shown).getByLabelText('MCP server URL')).toHaveTextContent(`${window.location.origin}/mcp`);
  });

  it('says which redirect URI the server refused', async () => {
    apiCalls.POST.mockImplementation(() =>
      Promise.resolve({
        error: {
          message: 'Failed to save',
          errors: {
            'redirect_uris.1': ['must use https (plain http only for localhost, 127.0.0.1 or [::1])'],
          },
        },
        response: { ok: false, status: 422 },
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'New MCP app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Register an MCP app' });
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Claude');
    await userEvent.type(
      within(dialog).getByLabelText(/Redirect URIs/),
      'https://claude.ai/api/mcp/auth_callback\nhttp://claude.example.com/callback',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register app' }));
    expect(
      await within(dialog).findByText(
        'http://claude.example.com/callback must use https (plain http only for localhost, 127.0.0.1 or [::1])',
      ),
    ).toBeInTheDocument();
  });

  it('changes an app’s redirect URIs, showing its client id and server URL but never a secret', async () => {
    apiCalls.PATCH.mockImplementation(() =>
      Promise.resolve({
        data: { ...registered, redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] },
        response: { ok: true, status: 200 },
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Claude' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claude' });
    expect(within(dialog).getByLabelText('Client id')).toHaveTextContent('lsci_abc');
    expect(within(dialog).queryByLabelText('Client secret')).toBeNull();
    const uris = within(dialog).getByLabelText(/Redirect URIs/);
    expect(uris).toHaveValue('https://claude.ai/api/mcp/auth_callback');
    await userEvent.clear(uris);
    await userEvent.type(uris, 'cursor://anysphere.cursor-mcp/oauth/callback');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(apiCalls.PATCH).toHaveBeenCalledWith('/api/v1/mcp_apps/{id}', {
      params: { path: { id: 3 } },
      body: { name: 'Claude', redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] },
    });
  });
});
