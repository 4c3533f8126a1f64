import { type EmailChatEvent, insertComponent, setSubject } from '@letterset/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Me, meQuery, type Permission } from '../../app/session.ts';
import type { AiSettings } from '../ai-settings/ai-settings-api.ts';
import { renderableSession } from '../editor/test-session.tsx';
import { EmailChatPanel } from './EmailChatPanel.tsx';
import type { EmailChatMessage } from './email-chat-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), DELETE: vi.fn() }));
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
}));

// The message box grows with its text, listening for web fonts loading, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

const chatPath = '/api/v1/workspaces/{workspace_id}/emails/{email_id}/chat_messages';
const newInstanceId = '00000000-0000-4000-8000-0000000000aa';

function aiSettings(configured: boolean): AiSettings {
  return {
    configured,
    source: configured ? 'environment' : 'none',
    provider: configured ? 'openai' : null,
    base_url: null,
    model: configured ? 'gpt-4.1' : null,
    image_model: null,
    api_key: null,
    environment_default: null,
    updated_at: null,
  };
}

const storedTurns: EmailChatMessage[] = [
  {
    id: 1,
    email_id: 7,
    role: 'user',
    text: 'Shorten the intro',
    locale: 'en-US',
    tools: [],
    error: null,
    created_at: '2026-11-21T10:30:00.000Z',
  },
  {
    id: 2,
    email_id: 7,
    role: 'assistant',
    text: 'Done: the intro is two sentences now.',
    locale: 'en-US',
    tools: [
      {
        name: 'set_field_values',
        label: 'set_field_values',
        source: 'letterset',
        outcome: 'done',
        message: 'Changed Text: body',
      },
    ],
    error: null,
    created_at: '2026-11-21T10:30:02.000Z',
  },
];

function ok(body: unknown, status = 200) {
  return Promise.resolve({ data: body, error: undefined, response: { ok: true, status } });
}

let conversation: EmailChatMessage[] = [];
function answerGets(configured = true) {
  apiCalls.GET.mockImplementation((path: string) => {
    if (path === '/api/v1/ai_settings') return ok(aiSettings(configured));
    if (path === chatPath)
      return ok({ results: conversation, pagination: { per: 100, page: 1, total: conversation.length } });
    throw new Error(`unexpected GET ${path}`);
  });
}

/** A streamed answer the test writes event by event, as the server would. */
function controlledStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(start) {
      controller = start;
    },
  });
  return {
    stream,
    send(event: EmailChatEvent) {
      controller?.enqueue(encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
    },
    end() {
      controller?.close();
    },
  };
}

function renderPanel(permissions: Permission[] = ['update_emails']) {
  const { editor, Live } = renderableSession();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(meQuery.queryKey, { permissions } as unknown as Me);
  render(
    <QueryClientProvider client={queryClient}>
      <Live>{() => <EmailChatPanel workspaceId={3} emailId={7} />}</Live>
    </QueryClientProvider>,
  );
  return { editor };
}

describe('EmailChatPanel', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
    apiCalls.DELETE.mockReset();
    conversation = [...storedTurns];
  });

  it('shows the conversation, streams the answer as it arrives, and applies its changes as one undo step', async () => {
    answerGets();
    const answer = controlledStream();
    apiCalls.POST.mockResolvedValue({
      data: answer.stream,
      error: undefined,
      response: { ok: true, status: 200 },
    });
    const { editor } = renderPanel();
    const before = editor.getState().document;

    expect(await screen.findByText('Done: the intro is two sentences now.')).toBeInTheDocument();
    expect(screen.getByText('Changed Text: body')).toBeInTheDocument();

    await userEvent.type(
      screen.getByRole('textbox', { name: 'Message to the assistant' }),
      'Add a hero{Enter}',
    );
    expect(apiCalls.POST).toHaveBeenCalledWith(
      chatPath,
      expect.objectContaining({
        params: { path: { workspace_id: 3, email_id: 7 } },
        parseAs: 'stream',
        body: {
          message: 'Add a hero',
          locale: 'en-US',
          document: { email_content: before.content, locales: ['en-US'], default_locale: 'en-US' },
        },
      }),
    );
    // The message shows at once; the answer comes in pieces.
    expect(screen.getByText('Add a hero')).toBeInTheDocument();
    answer.send({ type: 'text', delta: 'Adding a hero ' });
    expect(await screen.findByText('Adding a hero')).toBeInTheDocument();
    answer.send({
      type: 'tool',
      tool_call_id: 'call_1',
      name: 'add_component',
      label: 'add_component',
      source: 'letterset',
      input: { component: 'hero' },
      outcome: 'done',
      message: 'Added Hero',
    });
    answer.send({
      type: 'tool',
      tool_call_id: 'call_2',
      name: 'remove_component',
      label: 'remove_component',
      source: 'letterset',
      input: { instance_id: 'x' },
      outcome: 'refused',
      message: 'Refused: you cannot remove components',
    });
    answer.send({
      type: 'tool',
      tool_call_id: 'call_3',
      name: 'mcp12_get_brief',
      label: 'Campaign briefs › get_brief',
      source: 'connector',
      input: { campaign: 'spring' },
      outcome: 'done',
      message: 'Used Campaign briefs › get_brief',
    });
    answer.send({ type: 'text', delta: 'and a subject.' });
    expect(await screen.findByText('Added Hero')).toBeInTheDocument();
    // A connector's tool goes by its connector's name, never the id the model knows it by.
    expect(screen.getByText('Used Campaign briefs › get_brief')).toBeInTheDocument();
    expect(screen.queryByText(/mcp12_/)).toBeNull();
    expect(screen.getByText('Refused: you cannot remove components')).toBeInTheDocument();
    expect(await screen.findByText('Adding a hero and a subject.')).toBeInTheDocument();
    // Nothing is applied before the changes arrive.
    expect(editor.getState().document).toBe(before);

    const commands = [
      insertComponent({ componentId: 5, index: 1, instanceId: newInstanceId }),
      setSubject('null_branch', 'en-US', 'Spring is here'),
    ];
    conversation = [
      ...storedTurns,
      { ...storedTurns[0], id: 3, text: 'Add a hero' } as EmailChatMessage,
      {
        ...storedTurns[1],
        id: 4,
        text: 'Adding a hero and a subject.',
        tools: [
          { name: 'add_component', source: 'letterset', outcome: 'done', message: 'Added Hero' },
          {
            name: 'remove_component',
            source: 'letterset',
            outcome: 'refused',
            message: 'Refused: you cannot remove components',
          },
        ],
      } as EmailChatMessage,
    ];
    answer.send({ type: 'changes', commands });
    answer.send({ type: 'done' });
    answer.end();

    expect(await screen.findByRole('status')).toHaveTextContent(
      'The assistant’s 2 changes are in the email as one step; Undo takes them all back.',
    );
    const after = editor.getState().document;
    expect(after.content.component_instances.map((instance) => instance.id)).toContain(newInstanceId);
    expect(after.content.subject.branch_content.null_branch?.['en-US']).toBe('Spring is here');
    // One undo takes every change of the answer back.
    editor.undo();
    expect(editor.getState().document).toBe(before);

    // The stored turn replaces the live one; the box is ready for the next message.
    await waitFor(() => expect(screen.getAllByText('Adding a hero and a subject.')).toHaveLength(1));
    expect(screen.getByRole('textbox', { name: 'Message to the assistant' })).toBeEnabled();
  });

  it('shows the provider’s failure in plain words', async () => {
    answerGets();
    conversation = [];
    const answer = controlledStream();
    apiCalls.POST.mockResolvedValue({
      data: answer.stream,
      error: undefined,
      response: { ok: true, status: 200 },
    });
    renderPanel();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Message to the assistant' }), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    answer.send({ type: 'changes', commands: [] });
    answer.send({
      type: 'error',
      message: 'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
    );
    answer.end();
  });

  it('gives the words back when the message is refused before an answer', async () => {
    answerGets();
    apiCalls.POST.mockResolvedValue({
      data: undefined,
      error: { message: 'You need the update_emails permission to do this' },
      response: { ok: false, status: 403 },
    });
    renderPanel();
    const box = await screen.findByRole('textbox', { name: 'Message to the assistant' });
    await userEvent.type(box, 'Hello{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You need the update_emails permission to do this',
    );
    expect(box).toHaveValue('Hello');
  });

  it('clears the conversation', async () => {
    answerGets();
    apiCalls.DELETE.mockImplementation(() => {
      conversation = [];
      return ok(undefined, 204);
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Clear conversation' }));
    expect(apiCalls.DELETE).toHaveBeenCalledWith(chatPath, {
      params: { path: { workspace_id: 3, email_id: 7 } },
    });
    await waitFor(() => expect(screen.queryByText('Shorten the intro')).not.toBeInTheDocument());
    expect(
      within(screen.getByLabelText('Conversation')).queryAllByLabelText(/Your message|Assistant/),
    ).toEqual([]);
  });

  it('says AI is off instead of offering the box when there is no provider', async () => {
    answerGets(false);
    renderPanel();
    expect(await screen.findByText('AI is off')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Message to the assistant' })).not.toBeInTheDocument();
    // The conversation so far is still there to read.
    expect(screen.getByText('Shorten the intro')).toBeInTheDocument();
  });
});
