import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { McpConnectorsPage } from './McpConnectorsPage.tsx';
import type { EnabledMcpServer, McpServer } from './mcp-connectors-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
vi.mock('../shell/workspace.ts', () => ({ useWorkspaceId: () => 3 }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
}));
vi.mock('../../shared/PageHeader.tsx', () => ({
  PageHeader: ({ title }: { title: string }) => <h1>{title}</h1>,
}));
const signIn = vi.hoisted(() => vi.fn());
vi.mock('./mcp-connectors-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./mcp-connectors-api.ts')>()),
  goToSignIn: signIn,
}));

const stamp = '2026-11-01T00:00:00.000Z';
const server = (id: number, fields: Partial<McpServer> = {}): McpServer => ({
  id,
  name: `Server ${id}`,
  url: `https://mcp${id}.example.com/mcp`,
  healthcheck_status: 'healthy',
  healthcheck_error: null,
  healthchecked_at: stamp,
  headers: {},
  tools: [],
  logo_url: null,
  oauth: false,
  start_oauth_flow_url: null,
  workspace_id: 3,
  created_at: stamp,
  updated_at: stamp,
  ...fields,
});
const tool = (id: number, name: string, enabled: boolean) => ({
  id,
  name,
  description: `Does ${name}`,
  enabled,
  created_at: stamp,
});

const ok = (data: unknown) => ({ data, error: undefined, response: { ok: true, status: 200 } });
const page = <T,>(results: T[]) => ({ results, pagination: { page: 1, per: 20, total: results.length } });

function answer(servers: McpServer[] | 'error', enabled: EnabledMcpServer[] = []) {
  apiCalls.GET.mockImplementation(async (path: string) => {
    if (path.endsWith('/enabled_mcp_servers')) return ok(page(enabled));
    if (servers === 'error')
      return {
        data: undefined,
        error: { message: 'The server ran into a problem' },
        response: { ok: false, status: 500 },
      };
    return ok(page(servers));
  });
}

function renderPage(props: Parameters<typeof McpConnectorsPage>[0] = {}) {
  render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <McpConnectorsPage {...props} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('McpConnectorsPage', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['manage_mcp_servers'];
  });

  it('lists the servers with their health, tools and your connection, under the trust warning', async () => {
    answer(
      [
        server(1, { name: 'Briefs', tools: [tool(10, 'get_brief', true), tool(11, 'list_pages', false)] }),
        server(2, {
          name: 'Notion',
          oauth: true,
          healthcheck_error: 'Connect your account to list its tools',
        }),
        server(3, {
          name: 'Broken',
          healthcheck_status: 'unhealthy',
          healthcheck_error: 'The server answered HTTP 503',
        }),
        server(4, { name: 'New one', healthcheck_status: 'pending', healthchecked_at: null }),
      ],
      [
        {
          id: 7,
          mcp_server_id: 1,
          name: 'Briefs',
          enabled: true,
          start_oauth_flow_url: null,
          logo_url: null,
          created_at: stamp,
        },
      ],
    );
    renderPage();
    const briefs = (await screen.findByText('Briefs')).closest('tr') as HTMLElement;
    expect(within(briefs).getByText('Healthy')).toBeInTheDocument();
    expect(within(briefs).getByText('1 of 2 enabled')).toBeInTheDocument();
    expect(within(briefs).getByText('Connected')).toBeInTheDocument();
    expect(within(briefs).getByRole('button', { name: 'Disconnect Briefs' })).toBeInTheDocument();
    const notion = screen.getByText('Notion').closest('tr') as HTMLElement;
    expect(within(notion).getByText('OAuth')).toBeInTheDocument();
    expect(within(notion).getByText('Connect your account to list its tools')).toBeInTheDocument();
    expect(within(notion).getByRole('button', { name: 'Connect Notion' })).toHaveTextContent(
      'Connect account',
    );
    const broken = screen.getByText('Broken').closest('tr') as HTMLElement;
    expect(within(broken).getByText('Unhealthy')).toBeInTheDocument();
    expect(within(broken).getByText('The server answered HTTP 503')).toBeInTheDocument();
    const pending = screen.getByText('New one').closest('tr') as HTMLElement;
    expect(within(pending).getByText('Not checked')).toBeInTheDocument();
    expect(within(pending).getByText('Not checked yet')).toBeInTheDocument();
    expect(
      screen.getByText(/can read the data it is sent, make network requests and take actions/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New MCP connector' })).toBeInTheDocument();
  });

  it('shows the empty state, without the create button for those who cannot manage servers', async () => {
    granted.keys = [];
    answer([]);
    renderPage();
    expect(await screen.findByText('No MCP connectors yet')).toBeInTheDocument();
    expect(screen.getByText('People who manage MCP servers can add one.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New MCP connector' })).not.toBeInTheDocument();
  });

  it('shows loading, then the error with a retry', async () => {
    answer('error');
    renderPage();
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    expect(await screen.findByText('The server ran into a problem')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('connects a server without OAuth at once, and sends you to the sign-in for an OAuth one', async () => {
    answer([server(1, { name: 'Briefs' }), server(2, { name: 'Notion', oauth: true })]);
    apiCalls.POST.mockImplementation(async (_path: string, options: { body: { mcp_server_id: number } }) =>
      ok({
        id: 9,
        mcp_server_id: options.body.mcp_server_id,
        name: 'x',
        enabled: options.body.mcp_server_id === 1,
        start_oauth_flow_url:
          options.body.mcp_server_id === 2 ? 'https://auth.example.com/authorize?state=s' : null,
        logo_url: null,
        created_at: stamp,
      }),
    );
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Connect Briefs' }));
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/enabled_mcp_servers', {
      params: { path: { workspace_id: 3 } },
      body: {
        mcp_server_id: 1,
        after_oauth_redirect_url: `${window.location.origin}${window.location.pathname}`,
      },
    });
    expect(await screen.findByText('Briefs connected')).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Connect Notion' }));
    await waitFor(() => expect(signIn).toHaveBeenCalledWith('https://auth.example.com/authorize?state=s'));
  });

  it('runs the health check and enables tools from the server’s dialog', async () => {
    const briefs = server(1, {
      name: 'Briefs',
      headers: { 'X-Api-Key': '••••cdef' },
      tools: [tool(10, 'get_brief', false)],
    });
    answer([briefs]);
    apiCalls.POST.mockResolvedValue(
      ok({ ...briefs, healthcheck_status: 'unhealthy', healthcheck_error: 'The server answered HTTP 401' }),
    );
    apiCalls.PATCH.mockResolvedValue(ok({ ...briefs, tools: [tool(10, 'get_brief', true)] }));
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Briefs' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByDisplayValue('••••cdef')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('switch', { name: /^get_brief/ }));
    expect(apiCalls.PATCH).toHaveBeenCalledWith(
      '/api/v1/workspaces/{workspace_id}/mcp_servers/{mcp_server_id}/mcp_server_tools/{id}',
      { params: { path: { workspace_id: 3, mcp_server_id: 1, id: 10 } }, body: { enabled: true } },
    );
    await waitFor(() => expect(within(dialog).getByRole('switch', { name: /^get_brief/ })).toBeChecked());
    await user.click(within(dialog).getByRole('button', { name: 'Run health check' }));
    expect(await within(dialog).findByText('The server answered HTTP 401')).toBeInTheDocument();
    expect(within(dialog).getByText('Unhealthy')).toBeInTheDocument();
  });

  it('says how the return from the sign-in went', async () => {
    answer([]);
    renderPage({ oauthReturn: { connected: false, error: 'Access was denied at the sign-in' } });
    expect(await screen.findByText('Your account was not connected')).toBeInTheDocument();
    expect(screen.getByText('Access was denied at the sign-in')).toBeInTheDocument();
  });
});
