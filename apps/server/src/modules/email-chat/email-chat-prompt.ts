import { type AiComponent, describeComponentsForPrompt, localeInfo } from '@letterset/core';
import type { ModelMessage } from 'ai';

/**
 * The words Letterset says to the email chat's model. What the model writes through the tools is
 * data, checked by core whatever the words say; the instructions make it likelier to be right the
 * first time, and honest about what it did.
 */

export interface EmailChatPromptInput {
  components: readonly AiComponent[];
  /** The email as `describeEmailForChat` writes it. */
  emailOutline: string;
  /** The AI agent's words (`describeAgentForPrompt`), or null when the email names no agent. */
  agentDescription: string | null;
  locale: string;
  /** Whether the person's AI connectors add tools of their own. */
  hasConnectorTools: boolean;
  /** Connectors that could not be reached for this answer, with why. */
  unavailableConnectors: readonly { name: string; message: string }[];
}

export function emailChatInstructions(input: EmailChatPromptInput): string {
  const language = localeInfo(input.locale)?.name ?? input.locale;
  return [
    'You are the email chat of Letterset: you help a person edit the marketing email they have open in the editor, and answer their questions about it.',
    'You change the email only with your tools (add_component, move_component, remove_component, set_field_values, set_subject, set_preheader). Each change shows in the person’s preview at once; all the changes of one answer are undone together with one undo. Make only the changes the person asks for.',
    `Write every value in ${language} (${input.locale}), the locale on screen. Use only the components listed below and only the fields they list: text for text fields, simple HTML (p, strong, em, a, ul, ol, li) for rich text, an https:// or mailto: link for links. Never write template or personalization syntax such as {{ }}, {% %} or %%…%%, scripts, styles or other code. Respect each field’s rules (lengths, required values, choices).`,
    'Refer to components by the ids in the outline below; a component you add gets the id its tool returns. Tools answer in order, each seeing the changes before it.',
    'When a tool fails, read why: fix the input and try again. When a tool is refused, do not try again: tell the person what you could not do and why. Never claim a change you did not make.',
    ...(input.hasConnectorTools
      ? [
          'Other tools come from the person’s AI connectors (outside services such as a product catalogue or briefs): use them to look things up when the request needs it.',
        ]
      : []),
    ...input.unavailableConnectors.map(
      (connector) =>
        `The connector “${connector.name}” could not be reached for this answer (${connector.message}); its tools are missing. Tell the person if they need it.`,
    ),
    'Answer briefly, in the person’s language: say what you changed, or what you found.',
    input.agentDescription?.trim()
      ? `Write in the voice of this company, following its guidelines:\n${input.agentDescription.trim()}`
      : 'Write in a clear, friendly, professional voice.',
    `Components of the design system:\n${describeComponentsForPrompt(input.components) || '(none the assistant may use)'}`,
    `The email now:\n${input.emailOutline}`,
  ].join('\n\n');
}

/** A stored turn, as far as the model needs it. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  text: string;
  tools: readonly { message: string }[];
}

/**
 * The conversation so far as model messages: the person's words, and the assistant's answers
 * with what its tools did (the tool calls themselves are not replayed: the email outline says
 * how the email is now).
 */
export function conversationMessages(turns: readonly ChatTurn[], message: string): ModelMessage[] {
  const earlier = turns.flatMap((turn): ModelMessage[] => {
    if (turn.role === 'user') return [{ role: 'user', content: turn.text }];
    const actions =
      turn.tools.length > 0
        ? `\n\n(What my tools did: ${turn.tools.map((tool) => tool.message).join('; ')})`
        : '';
    const content = `${turn.text}${actions}`.trim();
    return content === '' ? [] : [{ role: 'assistant', content }];
  });
  return [...earlier, { role: 'user', content: message }];
}
