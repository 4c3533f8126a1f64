import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { meQuery } from '../../app/session.ts';
import { McpConsentPage } from './McpConsentPage.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));

const request = {
  client_id: 'lsci_claude',
  redirect_uri: 'https://claude.ai/api/mcp/auth_callback',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 'opaque',
};

const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });

function renderConsent(leaveTo: (url: string) => void, authorization: typeof request | null = request) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(meQuery.queryKey, {
    user: { id: 1, first_name: 'Ada', last_name: 'Admin', email: 'ada@example.com' },
    organization: { id: 1, name: 'Acme' },
    permissions: [],
    workspaces: [],
  } as never);
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <McpConsentPage request={authorization} leaveTo={leaveTo} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the MCP consent screen', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
    apiCalls.GET.mockImplementation(() =>
      ok({ client_id: 'lsci_claude', name: 'Claude', organization_name: 'Acme' }),
    );
  });

  it('names the app and the person, and Allow sends the browser back with the code', async () => {
    apiCalls.POST.mockImplementation(() =>
      ok({ redirect_url: 'https://claude.ai/api/mcp/auth_callback?code=abc&state=opaque' }),
    );
    const leaveTo = vi.fn();
    renderConsent(leaveTo);
    expect(
      await screen.findByRole('heading', { name: 'Allow Claude to use Letterset?' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Ada Admin \(ada@example.com\)/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await vi.waitFor(() =>
      expect(leaveTo).toHaveBeenCalledWith('https://claude.ai/api/mcp/auth_callback?code=abc&state=opaque'),
    );
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/mcp_consent', {
      body: { allow: true, ...request },
    });
  });

  it('Deny answers the app too', async () => {
    apiCalls.POST.mockImplementation(() =>
      ok({ redirect_url: 'https://claude.ai/api/mcp/auth_callback?error=access_denied&state=opaque' }),
    );
    const leaveTo = vi.fn();
    renderConsent(leaveTo);
    await userEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await vi.waitFor(() =>
      expect(leaveTo).toHaveBeenCalledWith(expect.stringContaining('error=access_denied')),
    );
    expect(apiCalls.POST.mock.calls[0]?.[1].body.allow).toBe(false);
  });

  it('says when the app is not one of the organization’s, or the link is incomplete', async () => {
    apiCalls.GET.mockImplementation(() =>
      Promise.resolve({ error: { message: 'Not found' }, response: { ok: false, status: 404 } }),
    );
    renderConsent(vi.fn());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No app with this client id is registered in Acme',
    );
  });

  it('refuses an incomplete link without asking the API', () => {
    renderConsent(vi.fn(), null);
    expect(screen.getByRole('alert')).toHaveTextContent('This link is incomplete');
    expect(apiCalls.GET).not.toHaveBeenCalled();
  });
});
