import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ExportDialog } from './ExportDialog.tsx';
import type { Export, PreSendProblem } from './exports-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, ...props }: { to: string; children: ReactNode }) => (
    <a href={to} {...props}>
      {children}
    </a>
  ),
}));

const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });

/** The dialog's POSTs that start an export (its preview also POSTs, to render the email). */
const exportPosts = () => apiCalls.POST.mock.calls.filter(([path]) => String(path).endsWith('/exports'));

function problem(overrides: Partial<PreSendProblem>): PreSendProblem {
  return {
    code: 'missing_alt_text',
    severity: 'warning',
    locale: 'en-US',
    branch: null,
    component_instance_id: null,
    message: 'An image has no alt text',
    ...overrides,
  };
}

function completedExport(): Export {
  return {
    id: 31,
    organization_id: 1,
    workspace_id: 7,
    connector_id: null,
    email_id: 5,
    email: { id: 5, name: 'Spring sale', status: 'draft' },
    dynamic_content_profile_id: null,
    status: 'completed',
    export_type: 'json',
    options: { locales: ['en-US', 'de-DE'], image_mode: 'use_cdn' },
    integration_name: null,
    platform: null,
    delivered_resources: {},
    metadata: { conditional_ids: [], personalization_tag_ids: [], image_ids: [] },
    export_errors: {},
    warnings: [],
    progress: { locales_done: 2, locales_total: 2 },
    created_by: null,
    created_at: '2026-11-25T10:00:00.000Z',
    updated_at: '2026-11-25T10:00:01.000Z',
    completed_at: '2026-11-25T10:00:01.000Z',
    download_zip_url: null,
    download_json_url: 'http://api.example.test/api/v1/workspaces/7/exports/31/download',
    download_pdf_url: null,
    open_in_integration_url: null,
  };
}

function renderDialog(problems: PreSendProblem[], status = 'draft') {
  apiCalls.GET.mockImplementation((path: string) => {
    if (path.endsWith('/checks'))
      return ok({
        ready: !problems.some((entry) => entry.severity === 'blocking'),
        blocking_count: problems.filter((entry) => entry.severity === 'blocking').length,
        warning_count: problems.filter((entry) => entry.severity === 'warning').length,
        problems,
      });
    if (path.endsWith('/dynamic_content_profiles'))
      return ok({ results: [], pagination: { page: 1, per: 100, total: 0 } });
    if (path.endsWith('/connectors'))
      return ok({
        results: [
          { id: 3, name: 'Our Iterable', integration_name: 'iterable', settings: {}, setup_fields: [] },
        ],
        pagination: { page: 1, per: 100, total: 1 },
      });
    return ok(completedExport());
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <ExportDialog
          workspaceId={7}
          email={{ id: 5, name: 'Spring sale', locales: ['en-US', 'de-DE'], status }}
          onClose={() => {}}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('ExportDialog', () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
  });

  it('shows a blocking check and keeps Export disabled', async () => {
    renderDialog([
      problem({ code: 'empty_link', severity: 'blocking', locale: 'de-DE', message: 'A link has no target' }),
      problem({}),
    ]);
    expect(await screen.findByText('1 blocking problem')).toBeTruthy();
    expect(
      screen
        .getAllByRole('alert')
        .map((alert) => alert.textContent)
        .join(),
    ).toContain('de-DE · A link has no target');
    expect(screen.getByText('1 warning')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
    expect(exportPosts()).toEqual([]);
  });

  it('starts the chosen export and offers its file once done', async () => {
    apiCalls.POST.mockImplementation(() => ok(completedExport()));
    renderDialog([]);
    expect(await screen.findByText('No problems found.')).toBeTruthy();
    await userEvent.click(screen.getByText('JSON'));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(exportPosts()).toHaveLength(1));
    expect(exportPosts()[0]?.[1]).toEqual({
      params: { path: { workspace_id: 7 } },
      body: {
        email_id: 5,
        export_type: 'json',
        dynamic_content_profile_id: null,
        options: { locales: ['en-US', 'de-DE'], image_mode: 'use_cdn' },
      },
    });
    expect(await screen.findByText('2 of 2 locales done')).toBeTruthy();
    const download = screen.getByRole('link', { name: 'Download JSON' });
    expect(download.getAttribute('href')).toBe('/api/v1/workspaces/7/exports/31/download');
  });

  it('keeps a draft email from a sending platform', async () => {
    apiCalls.POST.mockImplementation(() => ok(completedExport()));
    renderDialog([], 'draft');
    expect(await screen.findByText('No problems found.')).toBeTruthy();
    await userEvent.click(screen.getByText('Sending platform'));
    expect(await screen.findByText(/Only a published email goes to a sending platform/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
  });

  it('exports a published email to the chosen connector with its names and update choice', async () => {
    apiCalls.POST.mockImplementation(() => ok(completedExport()));
    renderDialog([], 'published');
    expect(await screen.findByText('No problems found.')).toBeTruthy();
    await userEvent.click(screen.getByText('Sending platform'));
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
    const connectorInput = await screen.findByLabelText('Connector', { selector: 'input' });
    await userEvent.click(connectorInput);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect((connectorInput as HTMLInputElement).value).toBe('Our Iterable (Iterable)'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name in Iterable (de-DE)' }), 'Frühling');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(exportPosts()).toHaveLength(1));
    expect(exportPosts()[0]?.[1].body).toEqual({
      email_id: 5,
      export_type: 'connector',
      connector_id: 3,
      dynamic_content_profile_id: null,
      options: {
        locales: ['en-US', 'de-DE'],
        image_mode: 'use_cdn',
        per_locale_options: {
          'en-US': { update_previous_export: true },
          'de-DE': { resource_name: 'Frühling', update_previous_export: true },
        },
      },
    });
  });
});
