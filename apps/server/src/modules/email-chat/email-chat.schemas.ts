import { Type } from 'typebox';
import { chatMessageRoles } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { Id, limits, RequestBody, ref, Timestamp, WorkspaceIdParams } from '../../http/schemas.ts';
import { EmailContent, Locale } from '../email-content/email-content.schemas.ts';

/** The longest message a person may send, in characters. */
export const chatMessageMaxLength = limits.prompt;

const ChatToolActivity = Type.Object(
  {
    name: Type.String({ description: 'The tool’s name as the model called it, e.g. add_component' }),
    label: Type.String({
      description:
        'The tool as people know it: Letterset’s tool by its name, a connector’s tool as “<connector name> › <tool name>”',
    }),
    source: Type.Enum(['letterset', 'connector'], {
      description: 'letterset: one of Letterset’s tools; connector: a tool of one of your AI connectors',
    }),
    outcome: Type.Enum(['done', 'refused', 'failed'], {
      description: 'done; refused (your permissions, or the email cannot change now); failed (bad input)',
    }),
    message: Type.String({ description: 'What happened, e.g. “Added Hero”' }),
  },
  { description: 'One tool the assistant called while answering' },
);

export const EmailChatMessage = Type.Object(
  {
    id: Type.Integer(),
    email_id: Type.Integer(),
    role: Type.Enum([...chatMessageRoles]),
    text: Type.String({ description: 'What you wrote, or the assistant’s answer' }),
    locale: Type.Union([ref(Locale), Type.Null()], {
      description: 'The locale that was on screen when you sent the message',
    }),
    tools: Type.Array(ChatToolActivity, {
      description: 'The tools the assistant called, in order (empty for your messages)',
    }),
    error: Type.Union([Type.String(), Type.Null()], {
      description:
        'Why the answer stopped short (the AI provider failed, the answer was interrupted), or null',
    }),
    created_at: Timestamp,
  },
  {
    $id: 'EmailChatMessage',
    description: 'One turn of your conversation with the email chat about one email',
  },
);

export const EmailChatParams = Type.Object({ ...WorkspaceIdParams.properties, email_id: Id() });

export const ListEmailChatMessagesQuery = Type.Object({ ...PaginationQuery.properties });

const Locales = Type.Array(ref(Locale), { minItems: 1, maxItems: 53, uniqueItems: true });

export const SendEmailChatMessageBody = RequestBody({
  message: Type.String({
    minLength: 1,
    maxLength: chatMessageMaxLength,
    description: `What you ask the assistant, at most ${chatMessageMaxLength.toLocaleString('en-US')} characters`,
  }),
  locale: ref(Locale),
  document: Type.Optional(
    RequestBody(
      {
        email_content: ref(EmailContent),
        locales: Locales,
        default_locale: Type.Optional(ref(Locale)),
      },
      'The email as your editor shows it, unsaved edits included; without it the saved email is used',
    ),
  ),
});
