import {
  chatAddComponent,
  chatLineMaxLength,
  chatMoveComponent,
  chatRemoveComponent,
  chatSetFieldValues,
  chatSetPreheader,
  chatSetSubject,
  type EditorCommand,
  type EmailChatEditContext,
  type EmailChatEditResult,
} from '@letterset/core';
import { type ToolSet, tool } from 'ai';
import { z } from 'zod';

/**
 * Letterset's own tools for the email chat: each builds an editor command through core (which
 * checks the permission the command needs, the values against the fields' rules, and the command
 * against the document as the earlier tools left it). Done commands are collected in order for
 * the browser to apply; the server never writes the email.
 */

/** A Letterset tool that did not act: thrown, so the model reads why as the tool's error. */
export class EmailChatToolError extends Error {
  readonly outcome: 'refused' | 'failed';

  constructor(outcome: 'refused' | 'failed', message: string) {
    super(message);
    this.name = 'EmailChatToolError';
    this.outcome = outcome;
  }

  /** The AI SDK hands the model `error.toString()`: the reason alone reads best. */
  override toString(): string {
    return this.message;
  }
}

/** The working copy the tools change, and the commands they made so far. */
export interface EmailChatEditSession {
  context: EmailChatEditContext;
  commands: EditorCommand[];
}

const instanceId = z
  .string()
  .describe('A component’s id, as the email’s outline lists it (or a tool returned)');
const values = z
  .record(z.string(), z.unknown())
  .describe('Field values by field name (liquid variable), only fields the component lists');
const position = z.number().nullish().describe('Its position in the email’s body, counted from 1 (the top)');
const afterInstanceId = z.string().nullish().describe('Put it right after the component with this id');

export const lettersetToolNames = [
  'add_component',
  'move_component',
  'remove_component',
  'set_field_values',
  'set_subject',
  'set_preheader',
] as const;

export function lettersetTools(session: EmailChatEditSession): ToolSet {
  const run = (result: EmailChatEditResult) => {
    if (!result.ok) throw new EmailChatToolError(result.outcome, result.message);
    session.context = { ...session.context, document: result.document };
    session.commands.push(result.command);
    return { done: result.summary, ...result.details };
  };
  return {
    add_component: tool({
      description:
        'Adds a component of the design system to the email. Without position or after_instance_id it goes at the end. Fields you leave out keep their defaults. Returns the new component’s id.',
      inputSchema: z.object({
        component: z.string().describe('The component’s name, as listed (e.g. hero)'),
        position,
        after_instance_id: afterInstanceId,
        values: values.optional(),
      }),
      execute: async (input) => run(chatAddComponent(session.context, input)),
    }),
    move_component: tool({
      description: 'Moves a component of the email to another position (or right after another component).',
      inputSchema: z.object({ instance_id: instanceId, position, after_instance_id: afterInstanceId }),
      execute: async (input) => run(chatMoveComponent(session.context, input)),
    }),
    remove_component: tool({
      description: 'Removes a component from the email.',
      inputSchema: z.object({ instance_id: instanceId }),
      execute: async (input) => run(chatRemoveComponent(session.context, input)),
    }),
    set_field_values: tool({
      description:
        'Sets values of some fields of one component of the email (the container included), in the locale on screen. Fields you leave out keep their values.',
      inputSchema: z.object({ instance_id: instanceId, values }),
      execute: async (input) => run(chatSetFieldValues(session.context, input)),
    }),
    set_subject: tool({
      description: 'Sets the email’s subject line in the locale on screen.',
      inputSchema: z.object({ text: z.string().describe(`At most ${chatLineMaxLength} characters`) }),
      execute: async (input) => run(chatSetSubject(session.context, input)),
    }),
    set_preheader: tool({
      description: 'Sets the email’s preheader (the preview text after the subject) in the locale on screen.',
      inputSchema: z.object({ text: z.string().describe(`At most ${chatLineMaxLength} characters`) }),
      execute: async (input) => run(chatSetPreheader(session.context, input)),
    }),
  };
}
