import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ExportDialog } from './ExportDialog.tsx';
import type { PreSendProblem } from './exports-api.ts';

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
const refused = (status: number, message: string) =>
  Promise.resolve({ error: { message }, response: { ok: false, status } });

const membership = {
  id: 4,
  label: 'Membership',
  branches: [
    { key: 'gold', label: 'Gold members' },
    { key: 'others', label: 'Everyone else' },
  ],
  default_syntax: { closing: '{% endif %}', branch_values: { gold: '{% if gold %}', others: '{% else %}' } },
  dynamic_content_profile_syntaxes: {},
};

function emailWith(conditionalId: number | null) {
  return {
    id: 5,
    name: 'Spring sale',
    locales: ['en-US', 'de-DE'],
    email_content: {
      subject: { branch_content: { null_branch: { 'en-US': 'Spring sale' } } },
      preheader: { branch_content: { null_branch: { 'en-US': '' } } },
      container_component_instance: { id: 'container', component_id: 1, field_values: {} },
      component_instances: [{ id: 'hero', component_id: 2, conditional_id: conditionalId, field_values: {} }],
    },
  };
}

/** What the server renders for a branch selection: the Hero's text of the selected branch. */
function renderFor(body: { branch_selection?: Record<string, string> }) {
  const branch = body.branch_selection?.['4'];
  const text = branch === 'gold' ? 'Thank you, gold member' : branch === 'others' ? 'Join us today' : 'Plain';
  return {
    html: `<p>${text}</p>`,
    subject: `Subject for ${branch ?? 'all'}`,
    preheader: '',
    plain_text: text,
  };
}

function renderDialog({
  conditionalId = 4,
  problems = [],
  renderRefusal,
}: {
  conditionalId?: number | null;
  problems?: PreSendProblem[];
  renderRefusal?: string;
}) {
  apiCalls.GET.mockImplementation((path: string) => {
    if (path.endsWith('/checks'))
      return ok({ ready: true, blocking_count: 0, warning_count: problems.length, problems });
    if (path.endsWith('/dynamic_content_profiles'))
      return ok({
        results: [{ id: 'iterable', name: 'Iterable' }],
        pagination: { page: 1, per: 100, total: 1 },
      });
    if (path.endsWith('/conditionals'))
      return ok({ results: [membership], pagination: { page: 1, per: 100, total: 1 } });
    if (path.endsWith('/emails/{id}')) return ok(emailWith(conditionalId));
    throw new Error(`Unexpected GET ${path}`);
  });
  apiCalls.POST.mockImplementation(
    (path: string, init: { body: { branch_selection?: Record<string, string> } }) => {
      if (path.endsWith('/render'))
        return renderRefusal ? refused(422, renderRefusal) : ok(renderFor(init.body));
      throw new Error(`Unexpected POST ${path}`);
    },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <ExportDialog
          workspaceId={7}
          email={{ id: 5, name: 'Spring sale', locales: ['en-US', 'de-DE'], status: 'draft' }}
          onClose={() => {}}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** The preview frame's document as the dialog wrote it (jsdom does not load srcdoc). */
function previewHtml(): string {
  return screen.queryByTitle('Export preview')?.getAttribute('srcdoc') ?? '';
}

/** Waits for the preview to show the text; the renders of a busy machine take their time. */
async function expectPreviewToShow(text: string) {
  await waitFor(() => expect(previewHtml()).toContain(text), { timeout: 8000 });
}

const renderCalls = () => apiCalls.POST.mock.calls.filter(([path]) => String(path).endsWith('/render'));

describe('ExportDialog audiences', () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
  });

  it('previews the default branch and says which branch readers without a profile get', async () => {
    renderDialog({});
    await expectPreviewToShow('Join us today');
    expect(renderCalls().at(-1)?.[1]).toEqual({
      params: { path: { workspace_id: 7, id: 5, locale: 'en-US' } },
      body: { branch_selection: { '4': 'others' } },
    });
    expect(
      screen.getByText(
        'Without a profile each conditional shows its default branch: Membership: Everyone else.',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('Preview subject').textContent).toBe('Subject: Subject for others');
  });

  it('shows the chosen audience and locale through the render endpoint', async () => {
    renderDialog({});
    await expectPreviewToShow('Join us today');
    const preview = screen.getByRole('group', { name: 'Preview' });
    await userEvent.click(within(preview).getByLabelText('Audience', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Gold members' }));
    await expectPreviewToShow('Thank you, gold member');
    expect(previewHtml()).not.toContain('Join us today');
    await userEvent.click(within(preview).getByLabelText('Preview locale', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'de-DE' }));
    await waitFor(() =>
      expect(renderCalls().at(-1)?.[1]).toEqual({
        params: { path: { workspace_id: 7, id: 5, locale: 'de-DE' } },
        body: { branch_selection: { '4': 'gold' } },
      }),
    );
  });

  it('has no Audience switch for an email without conditionals', async () => {
    renderDialog({ conditionalId: null });
    await expectPreviewToShow('Plain');
    expect(screen.queryByLabelText('Audience', { selector: 'input' })).toBeNull();
    expect(
      screen.getByText('This email has no conditional content: every reader sees the same email.'),
    ).toBeTruthy();
  });

  it('names the audience of each pre-send problem found in a branch', async () => {
    renderDialog({
      problems: [
        {
          code: 'missing_alt_text',
          severity: 'warning',
          locale: 'de-DE',
          branch: 'gold',
          component_instance_id: 'hero',
          message: 'An image has no alt text',
        },
      ],
    });
    await waitFor(() => expect(screen.getByText('1 warning')).toBeTruthy(), {
      timeout: 8000,
    });
    // Labelled by the branch's name, not its key.
    expect(screen.getByText(/· Gold members · An image has no alt text/).textContent).toBe(
      'de-DE · Gold members · An image has no alt text',
    );
  });

  it('tells when the email cannot be rendered', async () => {
    renderDialog({ renderRefusal: 'Liquid error in Hero: unexpected token' });
    expect(
      await screen.findByText('Liquid error in Hero: unexpected token', {}, { timeout: 8000 }),
    ).toBeTruthy();
    expect(screen.getByText('The email could not be rendered')).toBeTruthy();
  });
});
