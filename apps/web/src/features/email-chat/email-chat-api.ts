import type { components } from '@letterset/api-client';
import type { EditorDocument, EmailChatEvent } from '@letterset/core';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { ApiError, unwrap } from '../../shared/api-error.ts';

export type EmailChatMessage = components['schemas']['EmailChatMessage'];
export type EmailChatToolActivity = EmailChatMessage['tools'][number];
type Locale = components['schemas']['Locale'];
type EmailContent = components['schemas']['EmailContent'];

const path = '/api/v1/workspaces/{workspace_id}/emails/{email_id}/chat_messages' as const;

export const emailChatKeys = {
  conversation: (workspaceId: number, emailId: number) =>
    ['workspaces', workspaceId, 'emails', emailId, 'chat_messages'] as const,
};

/** The person's whole conversation about the email, oldest first. */
export const conversationQuery = (workspaceId: number, emailId: number) =>
  queryOptions({
    queryKey: emailChatKeys.conversation(workspaceId, emailId),
    queryFn: () =>
      allResults((page) =>
        unwrap(
          api.GET(path, { params: { path: { workspace_id: workspaceId, email_id: emailId }, query: page } }),
        ),
      ),
  });

export async function clearConversation(workspaceId: number, emailId: number): Promise<void> {
  await unwrap(api.DELETE(path, { params: { path: { workspace_id: workspaceId, email_id: emailId } } }));
}

/**
 * Sends a message with the email as the editor shows it, and hands each event of the streamed
 * answer to `onEvent` as it arrives. A refusal before the stream (422 without a provider, 403)
 * throws an ApiError; resolves when the stream ends.
 */
export async function sendChatMessage(options: {
  workspaceId: number;
  emailId: number;
  message: string;
  locale: string;
  document: EditorDocument;
  signal: AbortSignal;
  onEvent: (event: EmailChatEvent) => void;
}): Promise<void> {
  const { data, error, response } = await api.POST(path, {
    params: { path: { workspace_id: options.workspaceId, email_id: options.emailId } },
    body: {
      message: options.message,
      locale: options.locale as Locale,
      document: {
        email_content: options.document.content as unknown as EmailContent,
        locales: options.document.locales as Locale[],
        default_locale: options.document.defaultLocale as Locale,
      },
    },
    parseAs: 'stream',
    signal: options.signal,
  });
  if (!response.ok) throw new ApiError(response.status, error);
  if (!data) throw new ApiError(response.status, { message: 'The answer had no body.' });
  await readEventStream(data as ReadableStream<Uint8Array>, options.onEvent);
}

/** Reads server-sent events (blank-line separated `event:` / `data:` blocks; comments skipped). */
export async function readEventStream(
  stream: ReadableStream<Uint8Array>,
  onEvent: (event: EmailChatEvent) => void,
): Promise<void> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const take = (block: string) => {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6))
      .join('\n');
    if (data !== '') onEvent(JSON.parse(data) as EmailChatEvent);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      take(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
    }
  }
  buffered += decoder.decode();
  if (buffered.trim() !== '') take(buffered);
}
