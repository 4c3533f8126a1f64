import type { EditorCommand, EmailChatEvent } from '@letterset/core';
import { Alert, Box, Button, Group, Loader, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconHandStop, IconPlugConnected } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, memo, useEffect, useRef, useState } from 'react';
import { useCan } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { AiNotConfiguredNotice } from '../ai-settings/AiNotConfiguredNotice.tsx';
import { useAiSettings } from '../ai-settings/ai-settings-api.ts';
import { useEditorSession } from '../editor/EditorContext.tsx';
import {
  clearConversation,
  conversationQuery,
  type EmailChatToolActivity,
  emailChatKeys,
  sendChatMessage,
} from './email-chat-api.ts';

/** The answer being streamed: the message sent, and what came back so far. */
interface LiveTurn {
  message: string;
  text: string;
  tools: EmailChatToolActivity[];
  error: string | null;
}

/** What became of the assistant's changes in the editor, for the line under the conversation. */
type ChangesNotice = { ok: true; count: number } | { ok: false; message: string };

const outcomeStyle: Record<EmailChatToolActivity['outcome'], { color: string; icon: typeof IconCheck }> = {
  done: { color: 'teal', icon: IconCheck },
  refused: { color: 'orange', icon: IconHandStop },
  failed: { color: 'red', icon: IconAlertTriangle },
};

function ToolLine({ tool }: { tool: EmailChatToolActivity }) {
  const { color, icon: Icon } =
    tool.source === 'connector' && tool.outcome === 'done'
      ? { color: 'blue', icon: IconPlugConnected }
      : outcomeStyle[tool.outcome];
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Icon size={14} color={`var(--mantine-color-${color}-6)`} style={{ flexShrink: 0, marginTop: 3 }} />
      <Text size="xs" c={tool.outcome === 'done' ? 'dimmed' : color} style={{ whiteSpace: 'pre-wrap' }}>
        {tool.message}
      </Text>
    </Group>
  );
}

function Bubble({
  author,
  text,
  tools = [],
  error = null,
  streaming = false,
}: {
  author: 'user' | 'assistant';
  text: string;
  tools?: readonly EmailChatToolActivity[];
  error?: string | null;
  streaming?: boolean;
}) {
  const mine = author === 'user';
  return (
    <Paper
      p="xs"
      radius="md"
      bg={mine ? 'blue.0' : 'gray.0'}
      ml={mine ? 'xl' : 0}
      mr={mine ? 0 : 'xl'}
      aria-label={mine ? 'Your message' : 'Assistant'}
    >
      <Stack gap={4}>
        {tools.length > 0 && (
          <Stack gap={2} aria-label="What the assistant did">
            {tools.map((tool, index) => (
              // Tools have no id of their own; their order never changes.
              // biome-ignore lint/suspicious/noArrayIndexKey: a list that only grows at its end.
              <ToolLine key={index} tool={tool} />
            ))}
          </Stack>
        )}
        {text !== '' && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {text}
          </Text>
        )}
        {streaming && text === '' && tools.length === 0 && (
          <Loader size="xs" type="dots" aria-label="Thinking" />
        )}
        {error && (
          <Alert color="red" p={6} role="alert">
            <Text size="xs">{error}</Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The editor's Chat tab: a conversation with an assistant that edits the email on screen. Each
 * message is sent with the email as the editor shows it (unsaved edits included) and the locale on
 * screen; the answer streams in, with what each tool did, and the assistant's changes are applied
 * as ONE editor step, so they show in the preview at once, one undo takes them back, and
 * autosave saves them like any edit.
 */
export function EmailChatPanel({ workspaceId, emailId }: { workspaceId: number; emailId: number }) {
  const { editor, locale, readOnly } = useEditorSession();
  const can = useCan();
  const settings = useAiSettings();
  const queryClient = useQueryClient();
  const conversation = useQuery(conversationQuery(workspaceId, emailId));
  const [draft, setDraft] = useState('');
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [notice, setNotice] = useState<ChangesNotice | null>(null);
  const [clearing, setClearing] = useState(false);
  const answer = useRef<AbortController | null>(null);
  const end = useRef<HTMLDivElement | null>(null);

  // Leaving the editor stops the answer: nobody would see it applied.
  useEffect(() => () => answer.current?.abort(), []);
  const messages = conversation.data ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the conversation grows.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, live?.text, live?.tools.length]);

  function applyChanges(commands: EditorCommand[]) {
    if (commands.length === 0) return;
    const result = editor.dispatchAll(commands);
    if (result.ok) setNotice({ ok: true, count: commands.length });
    else
      setNotice({
        ok: false,
        message:
          result.reason === 'permission'
            ? `The assistant’s changes were not applied: your role does not allow them (they need ${result.permission.replaceAll('_', ' ')}).`
            : `The assistant’s changes were not applied: the email changed meanwhile (${result.message}) Ask again.`,
      });
  }

  function take(event: EmailChatEvent) {
    switch (event.type) {
      case 'text':
        setLive((turn) => turn && { ...turn, text: turn.text + event.delta });
        break;
      case 'tool':
        setLive(
          (turn) =>
            turn && {
              ...turn,
              tools: [
                ...turn.tools,
                {
                  name: event.name,
                  label: event.label,
                  source: event.source,
                  outcome: event.outcome,
                  message: event.message,
                },
              ],
            },
        );
        break;
      case 'changes':
        applyChanges(event.commands);
        break;
      case 'error':
        setLive((turn) => turn && { ...turn, error: event.message });
        break;
      case 'done':
        break;
    }
  }

  async function send() {
    const message = draft.trim();
    if (message === '' || live) return;
    const controller = new AbortController();
    answer.current = controller;
    setDraft('');
    setSendError(null);
    setNotice(null);
    setLive({ message, text: '', tools: [], error: null });
    try {
      await sendChatMessage({
        workspaceId,
        emailId,
        message,
        locale,
        document: editor.getState().document,
        signal: controller.signal,
        onEvent: take,
      });
    } catch (error) {
      if (!controller.signal.aborted) {
        // Refused before answering (no provider, no permission): nothing was kept, so the words come back.
        setSendError(errorMessage(error));
        setDraft(message);
      }
    } finally {
      answer.current = null;
      // The stored turn (the answer with what its tools did) replaces the live one.
      await queryClient.invalidateQueries({ queryKey: emailChatKeys.conversation(workspaceId, emailId) });
      setLive(null);
    }
  }

  async function clear() {
    setClearing(true);
    try {
      await clearConversation(workspaceId, emailId);
      setNotice(null);
      await queryClient.invalidateQueries({ queryKey: emailChatKeys.conversation(workspaceId, emailId) });
    } catch (error) {
      setSendError(errorMessage(error));
    } finally {
      setClearing(false);
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const configured = settings.data?.configured;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Text size="sm" c="dimmed">
          Ask for changes in plain words. The assistant uses the design system’s components; one undo takes
          back everything it changed in an answer.
        </Text>
        {messages.length > 0 && (
          <Button
            size="compact-xs"
            variant="subtle"
            color="gray"
            loading={clearing}
            disabled={live !== null}
            onClick={() => void clear()}
            style={{ flexShrink: 0 }}
          >
            Clear conversation
          </Button>
        )}
      </Group>

      {conversation.isPending && <Loader size="sm" aria-label="Loading the conversation" />}
      {conversation.isError && (
        <Alert color="red" p="xs">
          {errorMessage(conversation.error)}
        </Alert>
      )}
      <Stack gap="xs" role="log" aria-label="Conversation">
        {messages.map((message) => (
          <Bubble
            key={message.id}
            author={message.role}
            text={message.text}
            tools={message.tools}
            error={message.error}
          />
        ))}
        {live && (
          <>
            <Bubble author="user" text={live.message} />
            <Bubble author="assistant" text={live.text} tools={live.tools} error={live.error} streaming />
          </>
        )}
      </Stack>
      {notice &&
        (notice.ok ? (
          <Text size="xs" c="teal" role="status">
            {notice.count === 1
              ? 'The assistant’s change is in the email; Undo takes it back.'
              : `The assistant’s ${notice.count} changes are in the email as one step; Undo takes them all back.`}
          </Text>
        ) : (
          <Alert color="orange" p="xs" role="alert">
            <Text size="xs">{notice.message}</Text>
          </Alert>
        ))}
      <div ref={end} />

      {configured === false ? (
        <AiNotConfiguredNotice />
      ) : !can('update_emails') ? (
        <Text size="sm" c="dimmed">
          Your role cannot use the email chat: it needs the update emails permission.
        </Text>
      ) : (
        <Stack gap={6}>
          {readOnly && (
            <Text size="xs" c="dimmed">
              This email cannot be changed now: the assistant can answer questions, not change it.
            </Text>
          )}
          {sendError && (
            <Alert color="red" p="xs" role="alert">
              <Text size="xs">{sendError}</Text>
            </Alert>
          )}
          <Textarea
            aria-label="Message to the assistant"
            placeholder="e.g. Add a product card for the new sneakers after the hero"
            autosize
            minRows={2}
            maxRows={8}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            disabled={live !== null}
          />
          <Group justify="flex-end" gap="xs">
            {live && (
              <Button size="xs" variant="default" onClick={() => answer.current?.abort()}>
                Stop
              </Button>
            )}
            <Button
              size="xs"
              onClick={() => void send()}
              loading={live !== null}
              disabled={draft.trim() === ''}
            >
              Send
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The Chat tab's content, mounted the first time the tab is shown and kept mounted (hidden) while
 * other tabs are, so an answer keeps streaming, and its changes land, while the person looks at
 * the inspector or the outline. Memoised: the editor re-renders on every keystroke, the chat need not.
 */
export const EmailChatTab = memo(function EmailChatTab({
  active,
  workspaceId,
  emailId,
}: {
  active: boolean;
  workspaceId: number;
  emailId: number;
}) {
  const [opened, setOpened] = useState(active);
  if (active && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Box role="tabpanel" aria-label="Chat" style={active ? undefined : { display: 'none' }}>
      <EmailChatPanel workspaceId={workspaceId} emailId={emailId} />
    </Box>
  );
});
