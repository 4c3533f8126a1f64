import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { recordWrite } from '../audit-logs/audit-logs.service.ts';
import { findRequestedEmail } from '../emails/email-visibility.ts';
import {
  EmailChatMessage,
  EmailChatParams,
  ListEmailChatMessagesQuery,
  SendEmailChatMessageBody,
} from './email-chat.schemas.ts';
import {
  answerEmailChat,
  clearEmailChatMessages,
  listEmailChatMessages,
  startEmailChatTurn,
} from './email-chat.service.ts';

const collection = '/api/v1/workspaces/:workspace_id/emails/:email_id/chat_messages';
const tags = ['Email chat'];
const permission = 'update_emails' as const;

/** The email chat: a person's conversation with an assistant that edits the email they have open. */
export const emailChatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Answers under way, stopped when the server closes (a model may take minutes).
  const answering = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const controller of answering) controller.abort();
  });

  app.get(
    collection,
    {
      config: { permission },
      schema: {
        operationId: 'listEmailChatMessages',
        tags,
        summary: 'List your conversation with the email chat about an email',
        description:
          'Your messages and the assistant’s answers on this email, oldest first. Each person has their own ' +
          'conversation per email; nobody else sees it.',
        params: EmailChatParams,
        querystring: ListEmailChatMessagesQuery,
        response: { 200: ListResponse(ref(EmailChatMessage)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listEmailChatMessages(
        app.services,
        principalOf(request),
        await findRequestedEmail(app.services, request),
        pageRequest(request.query),
      ),
  );

  app.delete(
    collection,
    {
      config: { permission },
      schema: {
        operationId: 'clearEmailChatMessages',
        tags,
        summary: 'Clear your conversation with the email chat about an email',
        description: 'Deletes your messages and the answers on this email; the email is not changed.',
        params: EmailChatParams,
        response: { 204: Type.Null({ description: 'Cleared' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await clearEmailChatMessages(
        app.services,
        principalOf(request),
        await findRequestedEmail(app.services, request),
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    collection,
    {
      config: { permission },
      schema: {
        operationId: 'sendEmailChatMessage',
        tags,
        summary: 'Ask the email chat, and follow its answer as it streams',
        description:
          'Answers with server-sent events (`text/event-stream`); each `event:` names the type and `data:` carries ' +
          'it as JSON: `text` ({delta}) pieces of the answer; `tool` ({tool_call_id, name, source, input, outcome, ' +
          'message}) each tool the assistant ran, with outcome done, refused (your permissions, or an email that ' +
          'cannot change now) or failed; `changes` ({commands}) the editor commands its Letterset tools made, in ' +
          'order; then `done`, or `error` ({message}) when the AI provider failed, in plain words. The server never ' +
          'writes the email: apply the commands in the editor (one undo step) and save as usual. `document` is the ' +
          'email as your editor shows it (unsaved edits included); without it the saved email is used. `locale` is ' +
          'the locale on screen: the assistant reads and writes its values. Your message and the answer are kept in ' +
          'your conversation. 422 when the organization has no AI provider.',
        params: EmailChatParams,
        body: SendEmailChatMessageBody,
        response: {
          200: {
            description: 'A stream of `event:` / `data:` lines that ends after `done` or `error`',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const turn = await startEmailChatTurn(
        app.services,
        principalOf(request),
        await findRequestedEmail(app.services, request),
        request.body,
      );
      const controller = new AbortController();
      answering.add(controller);
      // The browser went away: stop asking the model on its behalf.
      reply.raw.on('close', () => controller.abort());
      reply.hijack();
      try {
        await answerEmailChat(app.services, turn, reply.raw, controller.signal);
      } finally {
        answering.delete(controller);
      }
      // A hijacked answer skips the onSend hook that audits writes: the message is recorded here.
      await recordWrite(app.services, request, 200, null).catch((error: unknown) => {
        request.log.error({ err: error }, 'the email chat message could not be written to the audit log');
      });
    },
  );
};
