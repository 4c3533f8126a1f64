import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api-error.ts';
import { AiAgentForm } from './AiAgentsPage.tsx';
import type { AiAgent } from './ai-agents-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
const uploads = vi.hoisted(() => ({ uploadBrandGuidelines: vi.fn() }));
vi.mock('./ai-agents-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./ai-agents-api.ts')>()),
  uploadBrandGuidelines: uploads.uploadBrandGuidelines,
}));

// Mantine's autosizing textareas listen for font loads, which jsdom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}

const stamp = '2026-11-01T00:00:00.000Z';
const saved = (fields: Partial<AiAgent> = {}): AiAgent => ({
  id: 77,
  name: 'Acme voice',
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
const withDocument = (agent: AiAgent): AiAgent => ({
  ...agent,
  brand_guidelines_document_name: 'Brand book',
  brand_guidelines_document: {
    filename: 'Brand book.pdf',
    content_type: 'application/pdf',
    size: 48_000,
    characters: 12_345,
    url: 'http://localhost:3000/api/v1/workspaces/3/ai_agents/77/brand_guidelines_doc',
  },
});

function answer(status: number, body: unknown) {
  const ok = status < 300;
  return Promise.resolve({
    data: ok ? body : undefined,
    error: ok ? undefined : body,
    response: { ok, status },
  });
}

function renderForm(agent: AiAgent | null) {
  const onClose = vi.fn();
  const { container } = render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AiAgentForm workspaceId={3} agent={agent} readOnly={false} onClose={onClose} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  const fileInput = () => container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
  return { onClose, fileInput };
}

const pdf = () => new File(['%PDF-1.7 brand book'], 'Brand book.pdf', { type: 'application/pdf' });

describe('AiAgentForm', () => {
  beforeEach(() => {
    vi.clearAllMocks();
  });

  it('creates the agent, then uploads the document chosen for it', async () => {
    apiCalls.POST.mockImplementation(() => answer(200, saved({ tone: 'Warm' })));
    uploads.uploadBrandGuidelines.mockImplementation(
      (_workspaceId: number, _id: number, _file: File, onProgress: (fraction: number) => void) => {
        onProgress(1);
        return Promise.resolve(withDocument(saved({ tone: 'Warm' })));
      },
    );
    const { onClose, fileInput } = renderForm(null);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), '  Acme voice ');
    await user.type(screen.getByRole('textbox', { name: 'Tone' }), 'Warm');
    await user.upload(fileInput(), pdf());
    expect(
      screen.getByText(/Brand book\.pdf \(1 KB\) is sent when the agent is created\./),
    ).toBeInTheDocument();
    // Nothing is sent before the agent exists.
    expect(uploads.uploadBrandGuidelines).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Create agent' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/ai_agents', {
      params: { path: { workspace_id: 3 } },
      body: {
        name: 'Acme voice',
        company_name: null,
        company_overview: null,
        tone: 'Warm',
        guidelines: null,
        brand_guidelines_document_name: null,
      },
    });
    expect(uploads.uploadBrandGuidelines).toHaveBeenCalledWith(3, 77, expect.any(File), expect.any(Function));
  });

  it('keeps a created agent open with the reason when its document is refused', async () => {
    apiCalls.POST.mockImplementation(() => answer(200, saved()));
    uploads.uploadBrandGuidelines.mockRejectedValue(
      new ApiError(422, {
        message: 'Failed to save',
        errors: { file: ['is a PDF protected by a password: upload a copy without the password'] },
      }),
    );
    const { onClose, fileInput } = renderForm(null);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Acme voice');
    await user.upload(fileInput(), pdf());
    await user.click(screen.getByRole('button', { name: 'Create agent' }));

    expect(
      await screen.findByText(
        'The document is a PDF protected by a password: upload a copy without the password.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/was created, but its document was not uploaded/)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    // The agent exists now: saving again changes it rather than creating a second one.
    expect(screen.getByRole('button', { name: 'Save agent' })).toBeInTheDocument();
  });

  it('uploads at once for a saved agent, and fills the document name the server chose', async () => {
    uploads.uploadBrandGuidelines.mockResolvedValue(withDocument(saved()));
    const { fileInput } = renderForm(saved());
    await userEvent.setup().upload(fileInput(), pdf());
    expect(await screen.findByRole('link', { name: 'Brand book.pdf' })).toHaveAttribute(
      'href',
      '/api/v1/workspaces/3/ai_agents/77/brand_guidelines_doc',
    );
    expect(screen.getByText('47 KB · 12,345 characters of text')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Document name' })).toHaveValue('Brand book');
  });

  it('refuses a document over 10 MB before sending it', async () => {
    const { fileInput } = renderForm(saved());
    const huge = new File([new Uint8Array(11 * 1024 * 1024)], 'huge.pdf', { type: 'application/pdf' });
    await userEvent.setup().upload(fileInput(), huge);
    expect(
      await screen.findByText('huge.pdf is too large (11.0 MB): documents can be up to 10.0 MB.'),
    ).toBeInTheDocument();
    expect(uploads.uploadBrandGuidelines).not.toHaveBeenCalled();
  });
});
