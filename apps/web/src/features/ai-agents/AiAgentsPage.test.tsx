import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AiAgentsPage } from './AiAgentsPage.tsx';
import type { AiAgent } from './ai-agents-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
vi.mock('../shell/workspace.ts', () => ({ useWorkspaceId: () => 3 }));
const granted = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../app/session.ts', () => ({
  useCan: () => (key: string) => granted.keys.includes(key),
}));
// The header's breadcrumbs are router links; the page is what is under test.
vi.mock('../../shared/PageHeader.tsx', () => ({
  PageHeader: ({ title }: { title: string }) => <h1>{title}</h1>,
}));

const stamp = '2026-11-01T00:00:00.000Z';
const agent = (id: number, fields: Partial<AiAgent> = {}): AiAgent => ({
  id,
  name: `Agent ${id}`,
  company_name: null,
  company_overview: null,
  tone: null,
  guidelines: null,
  brand_guidelines_document_name: null,
  brand_guidelines_document: null,
  created_at: stamp,
  updated_at: stamp,
  ...fields,
});

function listAnswer(results: AiAgent[], status = 200) {
  const body =
    status === 200
      ? { results, pagination: { page: 1, per: 20, total: results.length } }
      : { message: 'You need to sign in or provide a valid API key' };
  apiCalls.GET.mockResolvedValue({
    data: status === 200 ? body : undefined,
    error: status === 200 ? undefined : body,
    response: { ok: status === 200, status },
  });
}

function renderPage() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AiAgentsPage />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('AiAgentsPage', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    granted.keys = ['create_ai_agents', 'update_ai_agents', 'delete_ai_agents'];
  });

  it('lists the agents with their company and document', async () => {
    listAnswer([
      agent(1, {
        name: 'Acme voice',
        company_name: 'Acme Travel',
        brand_guidelines_document_name: 'Brand book',
        brand_guidelines_document: {
          filename: 'Brand book.pdf',
          content_type: 'application/pdf',
          size: 48_000,
          characters: 12_345,
          url: 'http://localhost:3000/api/v1/workspaces/3/ai_agents/1/brand_guidelines_doc',
        },
      }),
      agent(2, { name: 'Plain agent' }),
    ]);
    renderPage();
    const acme = (await screen.findByText('Acme voice')).closest('tr') as HTMLElement;
    expect(within(acme).getByText('Acme Travel')).toBeInTheDocument();
    expect(within(acme).getByText('Brand book')).toBeInTheDocument();
    expect(within(acme).getByText('12,345 characters of text')).toBeInTheDocument();
    const plain = screen.getByText('Plain agent').closest('tr') as HTMLElement;
    expect(within(plain).getByText('None')).toBeInTheDocument();
    expect(apiCalls.GET).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/ai_agents', {
      params: { path: { workspace_id: 3 }, query: { page: 1, per: 20 } },
    });
    expect(screen.getByRole('button', { name: 'New AI agent' })).toBeInTheDocument();
  });

  it('says when there are none, and offers creating one only to those who may', async () => {
    granted.keys = [];
    listAnswer([]);
    renderPage();
    expect(await screen.findByText('No AI agents yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New AI agent' })).not.toBeInTheDocument();
  });
});
