import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Me, meQuery, type Permission } from '../../app/session.ts';
import type { AiSettings } from '../ai-settings/ai-settings-api.ts';
import { DesignSystemFormModal } from './DesignSystemFormModal.tsx';
import { DesignSystemPage } from './DesignSystemPage.tsx';
import type { DesignSystem } from './design-systems-api.ts';

// Mantine's autosizing textareas listen to font loading, which jsdom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });
}

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), PATCH: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
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
  useParams: () => ({ workspaceId: '3', designSystemId: '7' }),
  useSearch: () => ({}),
  useNavigate: () => vi.fn(),
}));

const settings = (configured: boolean): AiSettings => ({
  configured,
  source: configured ? 'environment' : 'none',
  provider: configured ? 'openai_compatible' : null,
  base_url: null,
  model: configured ? 'test-model' : null,
  image_model: null,
  api_key: null,
  environment_default: null,
  updated_at: null,
});

const designSystem = (changes: Partial<DesignSystem> = {}): DesignSystem => ({
  id: 7,
  name: 'Garden',
  description: null,
  organization_id: 1,
  workspace_id: 3,
  shared: false,
  access_scope: 'this_workspace_only',
  require_brand_profile_for_use: false,
  archived: false,
  design_tokens: {},
  custom_styles: [],
  screenshot_url: null,
  upload_status: 'ready',
  create_with_ai: true,
  prompt: 'A garden centre newsletter',
  ai_generation_status: 'generating',
  ai_generation_error: null,
  created_at: '2026-10-01T10:00:00.000Z',
  updated_at: '2026-10-01T10:00:00.000Z',
  ...changes,
});

function ok(body: unknown) {
  return Promise.resolve({ data: body, error: undefined, response: { ok: true, status: 200 } });
}

function renderWith(
  ui: ReactNode,
  permissions: Permission[] = ['create_email_design_systems', 'update_email_design_systems'],
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(meQuery.queryKey, { permissions } as unknown as Me);
  render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </MantineProvider>,
  );
}

describe('Generate a design system with AI', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
  });

  it('creates the system with the brief when AI is on', async () => {
    apiCalls.GET.mockImplementation((path: string) => {
      if (path === '/api/v1/ai_settings') return ok(settings(true));
      if (path === '/api/v1/workspaces/{workspace_id}/ai_agents')
        return ok({ results: [], pagination: { per: 100, page: 1, total: 0 } });
      throw new Error(`unexpected GET ${path}`);
    });
    apiCalls.POST.mockImplementation(() => ok(designSystem()));
    const onSaved = vi.fn();
    renderWith(<DesignSystemFormModal workspaceId={3} opened onClose={() => {}} onSaved={onSaved} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Garden');
    await user.click(await screen.findByRole('switch', { name: /Generate with AI/ }));
    await user.click(screen.getByRole('button', { name: 'Create with AI' }));
    expect(await screen.findByText('Describe the design system to generate')).toBeInTheDocument();
    expect(apiCalls.POST).not.toHaveBeenCalled();

    await user.type(screen.getByRole('textbox', { name: /Brief/ }), 'A garden centre newsletter');
    await user.click(screen.getByRole('button', { name: 'Create with AI' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/email_design_systems', {
      params: { path: { workspace_id: 3 } },
      body: {
        name: 'Garden',
        description: null,
        access_scope: 'this_workspace_only',
        require_brand_profile_for_use: false,
        create_with_ai: true,
        prompt: 'A garden centre newsletter',
        ai_agent_id: null,
      },
    });
  });

  it('shows a notice instead of the AI option when the organization has no provider', async () => {
    apiCalls.GET.mockImplementation((path: string) => {
      if (path === '/api/v1/ai_settings') return ok(settings(false));
      throw new Error(`unexpected GET ${path}`);
    });
    renderWith(<DesignSystemFormModal workspaceId={3} opened onClose={() => {}} />);
    expect(await screen.findByText(/AI is not set up for your organization/)).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: /Generate with AI/ })).not.toBeInTheDocument();
  });

  it('shows progress while the AI designs, then the components and what it could not do', async () => {
    let reads = 0;
    apiCalls.GET.mockImplementation((path: string) => {
      if (path === '/api/v1/workspaces/{workspace_id}/email_design_systems/{id}') {
        reads += 1;
        return ok(
          reads === 1
            ? designSystem()
            : designSystem({
                ai_generation_status: 'failed',
                ai_generation_error: 'This component still had problems after two repairs and was left out',
              }),
        );
      }
      if (
        path === '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/components'
      )
        return ok({ results: [], pagination: { per: 10, page: 1, total: 0 } });
      throw new Error(`unexpected GET ${path}`);
    });
    renderWith(<DesignSystemPage />);
    expect(await screen.findByText('Letterset is designing your components…')).toBeInTheDocument();
    expect(screen.getByText('A garden centre newsletter')).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Components' })).not.toBeInTheDocument();

    expect(await screen.findByText(/was left out/, undefined, { timeout: 6_000 })).toBeInTheDocument();
    expect(screen.getByText('The AI could not design all of this system')).toBeInTheDocument();
    expect(screen.queryByText('Letterset is designing your components…')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Components' })).toBeInTheDocument();
  });
});
