import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Me, meQuery, type Permission } from '../../app/session.ts';
import { AiNotConfiguredNotice } from './AiNotConfiguredNotice.tsx';
import { AiSettingsPage } from './AiSettingsPage.tsx';
import type { AiSettings, AiUsage } from './ai-settings-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), PATCH: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
// The page's links need no router to be read.
vi.mock('@tanstack/react-router', () => ({
  Link: ({
    to,
    children,
    ...rest
  }: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) => (
    <a href={to} {...rest}>
      {children}
    </a>
  ),
}));

const noProvider: AiSettings = {
  configured: false,
  source: 'none',
  provider: null,
  base_url: null,
  model: null,
  image_model: null,
  api_key: null,
  environment_default: null,
  updated_at: null,
};

const emptyUsage: AiUsage = {
  since: '2026-10-02T00:00:00.000Z',
  totals: { calls: 0, input_tokens: 0, output_tokens: 0 },
  results: [],
};

function ok(body: unknown) {
  return Promise.resolve({ data: body, error: undefined, response: { ok: true, status: 200 } });
}

function answerGets(settings: AiSettings, usage: AiUsage = emptyUsage) {
  apiCalls.GET.mockImplementation((path: string) => {
    if (path === '/api/v1/ai_settings') return ok(settings);
    if (path === '/api/v1/ai_usage') return ok(usage);
    throw new Error(`unexpected GET ${path}`);
  });
}

function renderWith(ui: ReactNode, permissions: Permission[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(meQuery.queryKey, { permissions } as unknown as Me);
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </MantineProvider>,
  );
}

describe('AiSettingsPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
  });

  it('says AI is off without a provider, and shows an empty usage table', async () => {
    answerGets(noProvider);
    renderWith(<AiSettingsPage />, ['update_organization']);
    expect(await screen.findByText('AI features are off')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Provider' })).toBeInTheDocument();
    expect(await screen.findByText('No AI calls in the last 30 days')).toBeInTheDocument();
    expect(apiCalls.GET).toHaveBeenCalledWith('/api/v1/ai_usage', { params: { query: { days: 30 } } });
  });

  it("shows where the provider comes from: the server's default", async () => {
    answerGets({
      ...noProvider,
      configured: true,
      source: 'environment',
      environment_default: {
        provider: 'openai_compatible',
        base_url: 'http://127.0.0.1:11434/v1',
        model: 'llama3.1',
        image_model: null,
      },
    });
    renderWith(<AiSettingsPage />, ['update_organization']);
    const status = await screen.findByRole('status', { name: 'Provider in use' });
    expect(status).toHaveTextContent('The server’s default');
    expect(status).toHaveTextContent('OpenAI-compatible server · llama3.1');
    expect(status).toHaveTextContent('at http://127.0.0.1:11434/v1');
  });

  it('lists calls and tokens per feature and person with totals, for the period chosen', async () => {
    answerGets(noProvider, {
      since: '2026-10-02T00:00:00.000Z',
      totals: { calls: 5, input_tokens: 12_400, output_tokens: 3_100 },
      results: [
        {
          feature: 'email_generation',
          user: { id: 5, first_name: 'Edith', last_name: 'Editor', profile_image_url: null },
          calls: 3,
          input_tokens: 12_000,
          output_tokens: 3_000,
        },
        { feature: 'translation', user: null, calls: 2, input_tokens: 400, output_tokens: 100 },
      ],
    });
    renderWith(<AiSettingsPage />, ['update_organization']);
    const table = await screen.findByRole('table', { name: 'AI usage, last 30 days' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Email generation');
    expect(rows[1]).toHaveTextContent('Edith Editor');
    expect(rows[2]).toHaveTextContent('Translation');
    expect(rows[2]).toHaveTextContent('No one');
    expect(rows[3]).toHaveTextContent(`Total5${(12_400).toLocaleString()}${(3_100).toLocaleString()}`);

    await userEvent.click(screen.getByRole('combobox', { name: 'Period' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Last 7 days' }));
    await waitFor(() =>
      expect(apiCalls.GET).toHaveBeenCalledWith('/api/v1/ai_usage', { params: { query: { days: 7 } } }),
    );
  });

  it('shows others only whether AI is set up, without the form or the usage', async () => {
    answerGets(noProvider);
    renderWith(<AiSettingsPage />, ['create_emails']);
    expect(await screen.findByText('AI features are off')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Provider' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Usage' })).toBeNull();
    expect(apiCalls.GET).not.toHaveBeenCalledWith('/api/v1/ai_usage', expect.anything());
  });
});

describe('AiNotConfiguredNotice', () => {
  it('links to Settings › AI for those who may set a provider', () => {
    renderWith(<AiNotConfiguredNotice />, ['update_organization']);
    expect(
      screen.getByText(
        /AI is not set up for your organization. An Admin can set up a provider in Settings › AI./,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up a provider' })).toHaveAttribute('href', '/settings/ai');
  });

  it('explains without a link to everyone else', () => {
    renderWith(<AiNotConfiguredNotice />, ['create_emails']);
    expect(screen.getByText(/AI is not set up for your organization/)).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
