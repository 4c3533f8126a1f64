import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  type AiComponent,
  applyBrandProfile,
  type BrandedComponent,
  type CustomStyle,
  componentsForAi,
  describeEmailForChat,
  type EditorDocument,
  type EmailChatEvent,
  type EmailChatToolOutcome,
  type EmailChatToolSource,
  mergeCustomStyles,
} from '@letterset/core';
import { APICallError, type LanguageModelUsage, RetryError, stepCountIs, streamText, type ToolSet } from 'ai';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { emailChatMessages } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { type AiClient, openAiClient } from '../../integrations/ai/ai-client.ts';
import type { Services } from '../../services.ts';
import { describeAgentForPrompt, loadAiAgent } from '../ai-agents/ai-agent-prompt.ts';
import { renderingContext } from '../emails/emails.rendering.ts';
import { contentOf, type EmailRow } from '../emails/emails.serializers.ts';
import { type OpenedMcpTools, openMcpTools } from '../mcp-servers/mcp-tools.ts';
import type { EmailChatMessage, SendEmailChatMessageBody } from './email-chat.schemas.ts';
import { type ChatTurn, conversationMessages, emailChatInstructions } from './email-chat-prompt.ts';
import {
  type EmailChatEditSession,
  EmailChatToolError,
  lettersetToolNames,
  lettersetTools,
} from './email-chat-tools.ts';

type ChatMessageRow = typeof emailChatMessages.$inferSelect;

/** A tool the assistant called, as stored with its answer and listed. */
interface ToolActivity {
  name: string;
  /** How people know the tool (a connector's tool by its connector's name); absent in older rows. */
  label?: string;
  source: EmailChatToolSource;
  outcome: EmailChatToolOutcome;
  message: string;
}

/** What a row's `content` holds. */
interface StoredContent {
  text: string;
  locale: string | null;
  tools: ToolActivity[];
  error: string | null;
}

/** How many earlier turns the model reads: enough for a conversation, bounded for the prompt. */
const historyTurns = 20;
/** Steps of one answer: model calls, each possibly running tools. */
export const emailChatMaxSteps = 8;
/** Comment lines keep proxies from closing a stream while a slow tool runs. */
const keepAliveIntervalMs = 25_000;
/** Tool messages (an outside server's error) are cut to this many characters. */
const toolMessageMaxLength = 300;

function contentOfRow(row: ChatMessageRow): StoredContent {
  const content = row.content as Partial<StoredContent>;
  return {
    text: typeof content.text === 'string' ? content.text : '',
    locale: typeof content.locale === 'string' ? content.locale : null,
    tools: Array.isArray(content.tools) ? content.tools : [],
    error: typeof content.error === 'string' ? content.error : null,
  };
}

export function toEmailChatMessage(row: ChatMessageRow): Static<typeof EmailChatMessage> {
  const content = contentOfRow(row);
  return {
    id: row.id,
    email_id: row.emailId,
    role: row.role,
    text: content.text,
    locale: content.locale as Static<typeof EmailChatMessage>['locale'],
    tools: content.tools.map((tool) => ({ ...tool, label: tool.label ?? tool.name })),
    error: content.error,
    created_at: row.createdAt,
  };
}

/** The conversation is each person's own: their turns on this email, and nobody else's. */
function conversationOf(email: EmailRow, userId: number) {
  return and(eq(emailChatMessages.emailId, email.id), eq(emailChatMessages.userId, userId));
}

export async function listEmailChatMessages(
  services: Pick<Services, 'database'>,
  principal: Principal,
  email: EmailRow,
  page: PageRequest,
) {
  const where = conversationOf(email, principal.userId);
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select()
      .from(emailChatMessages)
      .where(where)
      .orderBy(asc(emailChatMessages.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(emailChatMessages).where(where),
  ]);
  return listBody(rows.map(toEmailChatMessage), total?.value ?? 0, page);
}

export async function clearEmailChatMessages(
  services: Pick<Services, 'database'>,
  principal: Principal,
  email: EmailRow,
) {
  await services.database.db.delete(emailChatMessages).where(conversationOf(email, principal.userId));
}

async function storeMessage(
  db: Database,
  email: EmailRow,
  userId: number,
  role: ChatMessageRow['role'],
  content: StoredContent,
): Promise<void> {
  await db.insert(emailChatMessages).values({
    organizationId: email.organizationId,
    workspaceId: email.workspaceId,
    emailId: email.id,
    userId,
    role,
    content: content as unknown as Record<string, unknown>,
  });
}

/** Why the assistant may not change the email now, in the words its refusals use; null when it may. */
function frozenReasonOf(email: EmailRow): string | null {
  if (email.aiGenerationStatus === 'generating')
    return 'the email is being written by AI; it can be changed once that is done';
  if (email.status === 'published')
    return 'the email is published, so it is read-only; convert it to draft to change it';
  if (email.status === 'in_review' || email.status === 'approved')
    return `the email is ${email.status === 'in_review' ? 'in review' : 'approved'}: what is approved is what ships, so its content cannot change now`;
  return null;
}

/** The editor's document the request brings, or the saved email's. */
function documentOf(email: EmailRow, body: Static<typeof SendEmailChatMessageBody>): EditorDocument {
  if (!body.document)
    return { content: contentOf(email), locales: email.locales, defaultLocale: email.defaultLocale };
  const { locales } = body.document;
  const defaultLocale =
    body.document.default_locale ??
    (locales.includes(email.defaultLocale) ? email.defaultLocale : locales[0]);
  if (!defaultLocale || !locales.includes(defaultLocale))
    throw ValidationError.field('document.default_locale', 'must be one of document.locales');
  return {
    content: body.document.email_content as EditorDocument['content'],
    locales: [...locales],
    defaultLocale,
  };
}

/** Everything an answer needs, gathered before the stream starts (so refusals are plain HTTP errors). */
export interface EmailChatTurn {
  email: EmailRow;
  principal: Principal;
  client: AiClient;
  message: string;
  locale: string;
  document: EditorDocument;
  components: AiComponent[];
  componentsById: ReadonlyMap<number, BrandedComponent>;
  customStyles: CustomStyle[];
  agentDescription: string | null;
  history: ChatTurn[];
}

/**
 * Checks a message before anything streams (the text, the locale against the document's locales,
 * and that the organization has an AI provider: the 422 that says an Admin can set one up), and
 * gathers what the assistant reads: the components as the brand sees them, the agent's guidelines
 * and the conversation so far.
 */
export async function startEmailChatTurn(
  services: Services,
  principal: Principal,
  email: EmailRow,
  body: Static<typeof SendEmailChatMessageBody>,
): Promise<EmailChatTurn> {
  const message = body.message.trim();
  if (message === '') throw ValidationError.field('message', "can't be blank");
  const document = documentOf(email, body);
  if (!document.locales.includes(body.locale))
    throw ValidationError.field('locale', 'is not one of the email’s locales');
  const client = await openAiClient(services, {
    organizationId: principal.organizationId,
    userId: principal.userId,
  });
  const [{ system, definitions, brandProfile }, agentDescription, history] = await Promise.all([
    renderingContext(services, email),
    agentDescriptionOf(services, email),
    recentTurns(services.database.db, email, principal.userId),
  ]);
  const branded = applyBrandProfile(definitions, brandProfile);
  return {
    email,
    principal,
    client,
    message,
    locale: body.locale,
    document,
    components: componentsForAi(branded),
    componentsById: new Map(branded.map((entry) => [entry.id, entry])),
    customStyles: mergeCustomStyles(system.customStyles, brandProfile?.custom_styles),
    agentDescription,
    history,
  };
}

/** An SSE writer that stops quietly once the browser has gone. */
function eventWriter(response: ServerResponse) {
  const open = () => !response.destroyed && !response.writableEnded;
  return {
    send(event: EmailChatEvent) {
      if (open()) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    comment(text: string) {
      if (open()) response.write(`: ${text}\n\n`);
    },
    end() {
      if (open()) response.end();
    },
  };
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > toolMessageMaxLength ? `${text.slice(0, toolMessageMaxLength)}…` : text;
}

/** What a connector's tool answered, read for the activity list (an MCP result may be an error). */
function connectorOutcome(
  label: string,
  output: unknown,
): { outcome: EmailChatToolOutcome; message: string } {
  const answer = output as { isError?: unknown; text?: unknown } | null;
  if (answer && typeof answer === 'object' && answer.isError === true)
    return {
      outcome: 'failed',
      message: `${label} answered with an error${typeof answer.text === 'string' && answer.text ? `: ${errorText(answer.text)}` : ''}`,
    };
  return { outcome: 'done', message: `Used ${label}` };
}

/**
 * Answers one message as server-sent events on `response`: `text` deltas and `tool` events as
 * they come, then `changes` (the editor commands Letterset's tools made, in order) and `done`, or
 * `error` with the provider's failure in plain words. Both turns are stored in the person's
 * conversation; the email itself is never written here: the editor applies the commands.
 */
export async function answerEmailChat(
  services: Pick<Services, 'config' | 'database' | 'log' | 'secrets'>,
  turn: EmailChatTurn,
  response: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const { email, principal, client, locale } = turn;
  const db = services.database.db;
  const writer = eventWriter(response);
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies that buffer responses (nginx) would hold the answer back.
    'x-accel-buffering': 'no',
  });
  const keepAlive = setInterval(() => writer.comment('keep-alive'), keepAliveIntervalMs);

  let text = '';
  const activity: ToolActivity[] = [];
  let failure: string | null = null;
  const session: EmailChatEditSession = {
    context: {
      document: turn.document,
      locale,
      components: turn.components,
      componentsById: turn.componentsById,
      permissions: principal.permissions,
      customStyles: turn.customStyles,
      frozenReason: frozenReasonOf(email),
      newInstanceId: randomUUID,
    },
    commands: [],
  };
  let connectors: OpenedMcpTools | null = null;
  try {
    await storeMessage(db, email, principal.userId, 'user', {
      text: turn.message,
      locale,
      tools: [],
      error: null,
    });

    const unavailableConnectors: { name: string; message: string }[] = [];
    connectors = await openMcpTools(
      services,
      { organizationId: email.organizationId, workspaceId: email.workspaceId, userId: principal.userId },
      { onServerFailure: (failed) => unavailableConnectors.push(failed) },
    );
    const letterset = lettersetTools(session);
    // Letterset's own tools keep their names whatever a connector calls its tools.
    const tools: ToolSet = { ...connectors.tools, ...letterset };
    const lettersetNames = new Set<string>(lettersetToolNames);
    const labelOf = (toolName: string) =>
      (lettersetNames.has(toolName) ? undefined : connectors?.labels.get(toolName)) ?? toolName;

    const result = streamText({
      model: client.languageModel(),
      instructions: emailChatInstructions({
        components: turn.components,
        emailOutline: describeEmailForChat(turn.document, locale, turn.componentsById),
        agentDescription: turn.agentDescription,
        locale,
        hasConnectorTools: Object.keys(connectors.tools).length > 0,
        unavailableConnectors,
      }),
      messages: conversationMessages(turn.history, turn.message),
      tools,
      stopWhen: stepCountIs(emailChatMaxSteps),
      // One at a time: each Letterset tool sees the document the one before it left.
      toolCallConcurrency: 1,
      maxRetries: 1,
      abortSignal: signal,
      // Failures arrive as `error` parts below; the default would print them to the console.
      onError: () => {},
    });

    let usage: LanguageModelUsage | undefined;
    for await (const part of result.stream) {
      switch (part.type) {
        case 'text-delta':
          text += part.text;
          writer.send({ type: 'text', delta: part.text });
          break;
        case 'tool-result': {
          if (part.preliminary) break;
          const letterset = lettersetNames.has(part.toolName);
          const done = letterset
            ? {
                outcome: 'done' as const,
                message: String((part.output as { done?: unknown })?.done ?? part.toolName),
              }
            : connectorOutcome(labelOf(part.toolName), part.output);
          const label = labelOf(part.toolName);
          activity.push({
            name: part.toolName,
            label,
            source: letterset ? 'letterset' : 'connector',
            ...done,
          });
          writer.send({
            type: 'tool',
            tool_call_id: part.toolCallId,
            name: part.toolName,
            label,
            source: letterset ? 'letterset' : 'connector',
            input: part.input,
            ...done,
          });
          break;
        }
        case 'tool-error': {
          const letterset = lettersetNames.has(part.toolName);
          const outcome = part.error instanceof EmailChatToolError ? part.error.outcome : 'failed';
          const message =
            part.error instanceof EmailChatToolError
              ? part.error.message
              : `${labelOf(part.toolName)} failed: ${errorText(part.error)}`;
          const source = letterset ? 'letterset' : 'connector';
          const label = labelOf(part.toolName);
          activity.push({ name: part.toolName, label, source, outcome, message });
          writer.send({
            type: 'tool',
            tool_call_id: part.toolCallId,
            name: part.toolName,
            label,
            source,
            input: part.input,
            outcome,
            message,
          });
          break;
        }
        case 'error':
          failure ??= client.failureMessage(part.error);
          break;
        case 'abort':
          failure ??= 'The answer was stopped before it finished.';
          break;
        case 'finish':
          usage = part.totalUsage;
          break;
      }
    }
    if (usage) await client.recordUsageOf('email_chat', usage);
  } catch (error) {
    if (signal.aborted) failure ??= 'The answer was stopped before it finished.';
    else if (APICallError.isInstance(error) || RetryError.isInstance(error))
      failure ??= client.failureMessage(error);
    else {
      services.log.error({ err: error, emailId: email.id }, 'the email chat failed');
      failure ??= 'The answer failed because of an error in Letterset; it is logged on the server.';
    }
  } finally {
    clearInterval(keepAlive);
    await connectors?.close().catch((error: unknown) => {
      services.log.warn(
        { err: error, emailId: email.id },
        'closing the AI connectors of an email chat failed',
      );
    });
  }

  writer.send({ type: 'changes', commands: session.commands });
  try {
    await storeMessage(db, email, principal.userId, 'assistant', {
      text,
      locale,
      tools: activity,
      error: failure,
    });
  } catch (error) {
    services.log.error({ err: error, emailId: email.id }, 'the email chat answer could not be stored');
  }
  writer.send(failure === null ? { type: 'done' } : { type: 'error', message: failure });
  writer.end();
}

async function agentDescriptionOf(
  services: Pick<Services, 'database'>,
  email: EmailRow,
): Promise<string | null> {
  if (email.aiAgentId === null) return null;
  try {
    const description = describeAgentForPrompt(
      await loadAiAgent(services.database.db, email.workspaceId, email.aiAgentId),
    );
    return description === '' ? null : description;
  } catch (error) {
    // An agent deleted meanwhile: the chat answers in a neutral voice.
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

async function recentTurns(db: Database, email: EmailRow, userId: number): Promise<ChatTurn[]> {
  const rows = await db
    .select()
    .from(emailChatMessages)
    .where(conversationOf(email, userId))
    .orderBy(desc(emailChatMessages.id))
    .limit(historyTurns);
  return rows.reverse().map((row) => {
    const content = contentOfRow(row);
    return { role: row.role, text: content.text, tools: content.tools };
  });
}
