import { type ComponentInstance, type EmailContent, nullBranch } from '../content/types.ts';
import { applyCommand } from '../editing/apply-command.ts';
import {
  commandPermissions,
  type EditorCommand,
  type EditorCommandType,
  insertComponent,
  moveComponent,
  removeComponent,
  setFieldValues,
  setPreheader,
  setSubject,
} from '../editing/commands.ts';
import { type EditorDocument, InvalidCommandError } from '../editing/document.ts';
import type { CustomStyle, FieldDefinition } from '../fields/types.ts';
import type { PermissionKey } from '../permissions.ts';
import type { BrandedComponent } from '../render/design-system.ts';
import {
  type AiComponent,
  describeProblems,
  fieldsForAi,
  type GeneratedValue,
  neutralizeTemplateSyntax,
  readSectionValues,
} from './generated-content.ts';

/**
 * Email chat: an assistant changes the email a person has open in the editor through the same
 * named commands the editor uses. Each of its actions is checked here, purely: the permission the
 * command needs, the values against the fields' rules (core's reading of model output), and the
 * command against the document as the earlier actions left it. The server runs these for the
 * model's tools and streams the commands; the browser applies them as one undo step.
 */

/** How an assistant's tool call ended: done, refused (permissions, a frozen email), or failed (bad input). */
export type EmailChatToolOutcome = 'done' | 'refused' | 'failed';

/** Letterset's own tools, or a tool of one of the person's AI connectors (MCP servers). */
export type EmailChatToolSource = 'letterset' | 'connector';

/** One event of the `POST …/chat_messages` stream (`event:` is the type, `data:` this JSON). */
export type EmailChatEvent =
  | { type: 'text'; delta: string }
  | {
      type: 'tool';
      tool_call_id: string;
      name: string;
      /** The tool as people know it: a connector's tool as "<connector name> › <tool name>". */
      label: string;
      source: EmailChatToolSource;
      input: unknown;
      outcome: EmailChatToolOutcome;
      /** What happened in a few words: "Added Hero", "Refused: you cannot remove components". */
      message: string;
    }
  | { type: 'changes'; commands: EditorCommand[] }
  | { type: 'done' }
  | { type: 'error'; message: string };

export const emailChatEventTypes = [
  'text',
  'tool',
  'changes',
  'done',
  'error',
] as const satisfies readonly EmailChatEvent['type'][];

/** What the assistant's Letterset tools work on: the email as the person sees it, and who they are. */
export interface EmailChatEditContext {
  /** The working copy: each done action replaces it with the document after its command. */
  document: EditorDocument;
  /** The locale on screen: values, subject and preheader are written in it. */
  locale: string;
  /** The components the assistant may add (see `componentsForAi`). */
  components: readonly AiComponent[];
  /** Every component of the design system as the brand sees it, for instances already there. */
  componentsById: ReadonlyMap<number, BrandedComponent>;
  permissions: ReadonlySet<PermissionKey>;
  customStyles: readonly CustomStyle[];
  /** Why the email cannot change now (published, in review, being written by AI), or null. */
  frozenReason: string | null;
  newInstanceId: () => string;
}

/** An action's result: the command and the document after it, or why it was not made. */
export type EmailChatEditResult =
  | {
      ok: true;
      command: EditorCommand;
      document: EditorDocument;
      /** "Added Hero": for the person's activity list and the model's tool result. */
      summary: string;
      /** What the model may want next (the new instance's id and position). */
      details?: Record<string, unknown>;
    }
  | { ok: false; outcome: 'refused' | 'failed'; message: string };

/** Raw field values as a model gives them, checked by `readSectionValues`. */
export type RawValues = Record<string, unknown>;

const actionWords: Record<'add' | 'move' | 'remove' | 'values' | 'subject' | 'preheader', string> = {
  add: 'add components',
  move: 'move components',
  remove: 'remove components',
  values: 'change the values of components',
  subject: 'change the subject',
  preheader: 'change the preheader',
};
type Action = keyof typeof actionWords;

const actionCommand: Record<Action, EditorCommandType> = {
  add: 'insertComponent',
  move: 'moveComponent',
  remove: 'removeComponent',
  values: 'setFieldValues',
  subject: 'setSubject',
  preheader: 'setPreheader',
};

function failed(message: string): EmailChatEditResult {
  return { ok: false, outcome: 'failed', message };
}

/** Refused before anything is looked at: the email is frozen, or the person may not do this. */
function refusal(context: EmailChatEditContext, action: Action): EmailChatEditResult | null {
  if (context.frozenReason !== null)
    return { ok: false, outcome: 'refused', message: `Refused: ${context.frozenReason}` };
  const permission = commandPermissions[actionCommand[action]];
  if (context.permissions.has(permission)) return null;
  return {
    ok: false,
    outcome: 'refused',
    message: `Refused: you cannot ${actionWords[action]} (your role lacks the ${permission} permission)`,
  };
}

/** The command applied to the working copy, or the reason it does not fit. */
function applied(
  context: EmailChatEditContext,
  command: EditorCommand,
  summary: string,
  details?: Record<string, unknown>,
): EmailChatEditResult {
  try {
    const document = applyCommand(context.document, command);
    return { ok: true, command, document, summary, ...(details ? { details } : {}) };
  } catch (error) {
    if (error instanceof InvalidCommandError) return failed(error.message);
    throw error;
  }
}

/** The name a person knows an instance by: its own name, else its component's label. */
export function chatInstanceLabel(
  instance: Pick<ComponentInstance, 'name' | 'component_id'>,
  componentsById: ReadonlyMap<number, BrandedComponent>,
): string {
  return instance.name?.trim() || componentsById.get(instance.component_id)?.label || 'Unknown component';
}

function findBodyIndex(content: EmailContent, instanceId: string): number {
  return content.component_instances.findIndex((instance) => instance.id === instanceId);
}

function unknownInstance(instanceId: string): EmailChatEditResult {
  return failed(
    `No component of the email has the id “${instanceId}”: use an id from the email’s outline (or one a tool returned).`,
  );
}

/**
 * The values a model gave for some fields of a component: each must be a field the assistant may
 * write, and pass core's reading (type, links, rich-text allow-list, template syntax, validations).
 */
function readValues(
  component: Pick<BrandedComponent, 'label' | 'field_definitions'>,
  raw: RawValues,
  customStyles: readonly CustomStyle[],
): { values: Record<string, GeneratedValue> } | { problem: string } {
  const writable = fieldsForAi(component.field_definitions);
  const unknown = Object.keys(raw).filter(
    (name) => !writable.some((field) => field.liquid_variable === name),
  );
  if (unknown.length > 0) {
    const choices = writable.map((field) => field.liquid_variable);
    return {
      problem: `${unknown.map((name) => `“${name}”`).join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of ${component.label} the assistant may write; ${
        choices.length > 0 ? `its fields are: ${choices.join(', ')}` : 'it has none'
      }.`,
    };
  }
  const given: FieldDefinition[] = writable.filter((field) => field.liquid_variable in raw);
  const read = readSectionValues(given, raw, 'values', [...customStyles]);
  if (read.problems.length > 0)
    return { problem: `Invalid values, nothing was changed:\n${describeProblems(read.problems)}` };
  return { values: read.values };
}

function asFieldValues(locale: string, values: Record<string, GeneratedValue>) {
  return {
    [nullBranch]: {
      [locale]: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }])),
    },
  };
}

/**
 * Where a new or moved instance goes, as a body index: after another instance, at a 1-based
 * position, or (neither) at the end. `highest` is the last index allowed.
 */
function targetIndex(
  ids: readonly string[],
  where: { position?: number | null; after_instance_id?: string | null },
  highest: number,
): { index: number } | { problem: string } {
  const hasPosition = where.position !== undefined && where.position !== null;
  const hasAfter = where.after_instance_id !== undefined && where.after_instance_id !== null;
  if (hasPosition && hasAfter) return { problem: 'Give either position or after_instance_id, not both.' };
  if (hasAfter) {
    const at = ids.indexOf(where.after_instance_id as string);
    if (at < 0)
      return {
        problem: `No component of the email’s body has the id “${where.after_instance_id}” to go after.`,
      };
    return { index: at + 1 };
  }
  if (hasPosition) {
    const position = where.position as number;
    if (!Number.isInteger(position) || position < 1 || position > highest + 1)
      return { problem: `position must be a whole number from 1 to ${highest + 1}.` };
    return { index: position - 1 };
  }
  return { index: highest };
}

export function chatAddComponent(
  context: EmailChatEditContext,
  input: {
    component: string;
    position?: number | null;
    after_instance_id?: string | null;
    values?: RawValues;
  },
): EmailChatEditResult {
  const refused = refusal(context, 'add');
  if (refused) return refused;
  const chosen = context.components.find((entry) => entry.component.name === input.component);
  if (!chosen)
    return failed(
      `There is no component “${input.component}” the assistant may use; choose one of: ${context.components
        .map((entry) => entry.component.name)
        .join(', ')}.`,
    );
  const ids = context.document.content.component_instances.map((instance) => instance.id);
  const where = targetIndex(ids, input, ids.length);
  if ('problem' in where) return failed(where.problem);
  const read = readValues(chosen.component, input.values ?? {}, context.customStyles);
  if ('problem' in read) return failed(read.problem);
  const instanceId = context.newInstanceId();
  return applied(
    context,
    insertComponent({
      componentId: chosen.component.id,
      index: where.index,
      instanceId,
      fieldValues: Object.keys(read.values).length > 0 ? asFieldValues(context.locale, read.values) : {},
    }),
    `Added ${chosen.component.label}`,
    { instance_id: instanceId, position: where.index + 1 },
  );
}

export function chatMoveComponent(
  context: EmailChatEditContext,
  input: { instance_id: string; position?: number | null; after_instance_id?: string | null },
): EmailChatEditResult {
  const refused = refusal(context, 'move');
  if (refused) return refused;
  const { content } = context.document;
  const from = findBodyIndex(content, input.instance_id);
  if (from < 0) {
    if (content.container_component_instance.id === input.instance_id)
      return failed('The container holds the whole email: it cannot be moved.');
    return unknownInstance(input.instance_id);
  }
  if (input.after_instance_id === input.instance_id) return failed('A component cannot go after itself.');
  const others = content.component_instances
    .filter((instance) => instance.id !== input.instance_id)
    .map((instance) => instance.id);
  const where = targetIndex(others, input, others.length);
  if ('problem' in where) return failed(where.problem);
  const instance = content.component_instances[from] as ComponentInstance;
  return applied(
    context,
    moveComponent(input.instance_id, where.index),
    `Moved ${chatInstanceLabel(instance, context.componentsById)} to position ${where.index + 1}`,
    { position: where.index + 1 },
  );
}

export function chatRemoveComponent(
  context: EmailChatEditContext,
  input: { instance_id: string },
): EmailChatEditResult {
  const refused = refusal(context, 'remove');
  if (refused) return refused;
  const { content } = context.document;
  const index = findBodyIndex(content, input.instance_id);
  if (index < 0) {
    if (content.container_component_instance.id === input.instance_id)
      return failed('The container holds the whole email: it cannot be removed.');
    return unknownInstance(input.instance_id);
  }
  const instance = content.component_instances[index] as ComponentInstance;
  return applied(
    context,
    removeComponent(input.instance_id),
    `Removed ${chatInstanceLabel(instance, context.componentsById)}`,
  );
}

export function chatSetFieldValues(
  context: EmailChatEditContext,
  input: { instance_id: string; values: RawValues },
): EmailChatEditResult {
  const refused = refusal(context, 'values');
  if (refused) return refused;
  const { content } = context.document;
  const instance =
    content.container_component_instance.id === input.instance_id
      ? content.container_component_instance
      : content.component_instances.find((candidate) => candidate.id === input.instance_id);
  if (!instance) return unknownInstance(input.instance_id);
  const label = chatInstanceLabel(instance, context.componentsById);
  if (instance.conditional_id !== null && instance.conditional_id !== undefined)
    return failed(
      `${label} shows different content per conditional branch; its values can only be changed in the editor.`,
    );
  const component = context.componentsById.get(instance.component_id);
  if (!component) return failed(`${label} uses a component the design system no longer has.`);
  if (Object.keys(input.values).length === 0) return failed('Give at least one field value to set.');
  const read = readValues(component, input.values, context.customStyles);
  if ('problem' in read) return failed(read.problem);
  return applied(
    context,
    setFieldValues({ instanceId: instance.id, branch: nullBranch, locale: context.locale }, read.values),
    `Changed ${label}: ${Object.keys(read.values).join(', ')}`,
  );
}

/** The longest subject or preheader the assistant may write, in characters. */
export const chatLineMaxLength = 500;

function setLine(
  context: EmailChatEditContext,
  part: 'subject' | 'preheader',
  input: { text: string },
): EmailChatEditResult {
  const refused = refusal(context, part);
  if (refused) return refused;
  const current = context.document.content[part];
  if (current.conditional_id !== null && current.conditional_id !== undefined)
    return failed(`The ${part} differs per conditional branch; it can only be changed in the editor.`);
  if (typeof input.text !== 'string') return failed('text must be text.');
  const text = neutralizeTemplateSyntax(input.text.trim().replace(/\s+/g, ' '));
  if (part === 'subject' && text === '') return failed('The subject cannot be empty.');
  if (text.length > chatLineMaxLength)
    return failed(`The ${part} must be at most ${chatLineMaxLength} characters (it has ${text.length}).`);
  const command =
    part === 'subject'
      ? setSubject(nullBranch, context.locale, text)
      : setPreheader(nullBranch, context.locale, text);
  return applied(context, command, `Set the ${part}`);
}

export function chatSetSubject(context: EmailChatEditContext, input: { text: string }): EmailChatEditResult {
  return setLine(context, 'subject', input);
}

export function chatSetPreheader(
  context: EmailChatEditContext,
  input: { text: string },
): EmailChatEditResult {
  return setLine(context, 'preheader', input);
}

/** Values longer than this are cut in the outline the model reads, to keep the prompt small. */
const outlineValueMaxLength = 400;

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return JSON.stringify(
    text.length > outlineValueMaxLength ? `${text.slice(0, outlineValueMaxLength)}…` : text,
  );
}

function instanceLine(
  instance: ComponentInstance,
  locale: string,
  componentsById: ReadonlyMap<number, BrandedComponent>,
): string[] {
  const component = componentsById.get(instance.component_id);
  if (!component) return [`[${instance.id}] an unknown component (id ${instance.component_id})`];
  const named = instance.name?.trim() ? ` “${instance.name.trim()}”` : '';
  const heading = `[${instance.id}] ${component.label}${named} (component ${component.name})`;
  const notes: string[] = [];
  if (instance.hidden_from_locales?.[locale]) notes.push(`hidden in ${locale}`);
  if (instance.conditional_id !== null && instance.conditional_id !== undefined) {
    notes.push('different content per conditional branch: its values can only be changed in the editor');
    return [`${heading}; ${notes.join('; ')}`];
  }
  const stored = instance.field_values[nullBranch]?.[locale] ?? {};
  const values = fieldsForAi(component.field_definitions).map(
    (field) =>
      `${field.liquid_variable}: ${shown(stored[field.liquid_variable]?.value ?? field.default_value)}`,
  );
  return [
    `${heading}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`,
    ...values.map((line) => `    ${line}`),
  ];
}

/**
 * The email as the assistant reads it: subject, preheader, the container and the body's
 * components top to bottom with their ids and the values of the locale on screen (only fields the
 * assistant may write: never code, images or fields hidden from AI).
 */
export function describeEmailForChat(
  document: EditorDocument,
  locale: string,
  componentsById: ReadonlyMap<number, BrandedComponent>,
): string {
  const { content } = document;
  const line = (part: 'subject' | 'preheader') => {
    const text = content[part];
    if (text.conditional_id !== null && text.conditional_id !== undefined)
      return `${part === 'subject' ? 'Subject' : 'Preheader'}: different per conditional branch (changed only in the editor)`;
    return `${part === 'subject' ? 'Subject' : 'Preheader'}: ${shown(text.branch_content[nullBranch]?.[locale] ?? '')}`;
  };
  const body = content.component_instances.flatMap((instance, index) => {
    const [first, ...rest] = instanceLine(instance, locale, componentsById);
    return [`${index + 1}. ${first}`, ...rest];
  });
  return [
    `Locale on screen: ${locale} (the email’s locales: ${document.locales.join(', ')})`,
    line('subject'),
    line('preheader'),
    `Container: ${instanceLine(content.container_component_instance, locale, componentsById).join('\n')}`,
    body.length > 0 ? 'Components, top to bottom:' : 'The email has no components yet.',
    ...body,
  ].join('\n');
}
