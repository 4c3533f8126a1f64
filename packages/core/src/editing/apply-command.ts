import type {
  BranchedText,
  ComponentInstance,
  EmailContent,
  FieldValue,
  FieldValues,
} from '../content/types.ts';
import type {
  ConditionalChoice,
  CopyLocaleValuesCommand,
  EditorCommand,
  FieldTarget,
  InsertComponentCommand,
  SetLinkTrackingParameterCommand,
} from './commands.ts';
import { rebranch } from './conditionals.ts';
import {
  bodyIndexOf,
  type EditorDocument,
  findInstance,
  invalid,
  isInstanceIdTaken,
  requireBranchFor,
  requireLocale,
  updateEveryInstance,
  updateInstance,
  withContent,
  withEntry,
  withRecordOrNone,
} from './document.ts';

/**
 * The document after one command. Pure: the input is never modified, unchanged parts are shared
 * with the result, and a command that changes nothing returns the input itself. Throws
 * `InvalidCommandError` when the command does not fit the document.
 */
export function applyCommand(document: EditorDocument, command: EditorCommand): EditorDocument {
  const { content } = document;
  switch (command.type) {
    case 'insertComponent':
      return insertInstance(document, command);
    case 'moveComponent': {
      const from = bodyIndexOf(content, command.instanceId, 'moved');
      requireIndex(command.toIndex, content.component_instances.length - 1);
      if (from === command.toIndex) return document;
      const moving = content.component_instances[from] as ComponentInstance;
      const rest = content.component_instances.toSpliced(from, 1);
      return withContent(document, {
        ...content,
        component_instances: rest.toSpliced(command.toIndex, 0, moving),
      });
    }
    case 'removeComponent': {
      const index = bodyIndexOf(content, command.instanceId, 'removed');
      return withContent(document, {
        ...content,
        component_instances: content.component_instances.toSpliced(index, 1),
      });
    }
    case 'duplicateComponent': {
      const index = bodyIndexOf(content, command.instanceId, 'duplicated');
      requireFreeId(content, command.newInstanceId);
      const copy = {
        ...(content.component_instances[index] as ComponentInstance),
        id: command.newInstanceId,
      };
      return withContent(document, {
        ...content,
        component_instances: content.component_instances.toSpliced(index + 1, 0, copy),
      });
    }
    case 'renameComponent':
      return updateInstance(document, command.instanceId, (instance) => renamed(instance, command.name));
    case 'setFieldValue':
      return updateFieldValue(document, command, (existing) =>
        existing?.value === command.value ? existing : { ...existing, value: command.value },
      );
    case 'setFieldValues':
      return Object.entries(command.values).reduce(
        (current, [variable, value]) =>
          updateFieldValue(current, { ...command, variable }, (existing) =>
            existing?.value === value ? existing : { ...existing, value },
          ),
        document,
      );
    case 'setLinkTrackingParameter':
      return updateFieldValue(document, command, (existing) => withLinkTrackingParameter(existing, command));
    case 'setConditional':
      return updateInstance(document, command.instanceId, (instance) => {
        const field_values = rebranch(instance.field_values, instance.conditional_id, command);
        if (field_values === instance.field_values) return instance;
        return { ...instance, conditional_id: command.conditionalId, field_values };
      });
    case 'setSubject':
      return updateBranchedText(document, 'subject', (text) => withText(document, text, command));
    case 'setPreheader':
      return updateBranchedText(document, 'preheader', (text) => withText(document, text, command));
    case 'setSubjectConditional':
      return updateBranchedText(document, 'subject', (text) => withConditional(text, command));
    case 'setPreheaderConditional':
      return updateBranchedText(document, 'preheader', (text) => withConditional(text, command));
    case 'addLocale':
      if (command.locale.trim() === '') invalid('A locale needs a code.');
      if (document.locales.includes(command.locale))
        invalid(`The email already has the locale ${command.locale}.`);
      return { ...document, locales: [...document.locales, command.locale] };
    case 'removeLocale':
      return removeLocale(document, command.locale);
    case 'setDefaultLocale':
      requireLocale(document, command.locale);
      if (command.locale === document.defaultLocale) return document;
      return { ...document, defaultLocale: command.locale };
    case 'copyLocaleValues':
      return copyLocaleValues(document, command);
    case 'setHiddenInLocale': {
      requireLocale(document, command.locale);
      bodyIndexOf(content, command.instanceId, 'hidden');
      return updateInstance(document, command.instanceId, (instance) => {
        const current = instance.hidden_from_locales ?? {};
        const hidden = withEntry(current, command.locale, command.hidden ? true : undefined);
        return hidden === current ? instance : withRecordOrNone(instance, 'hidden_from_locales', hidden);
      });
    }
    case 'setGlobalLinkTrackingParameter': {
      if (command.parameter.trim() === '') invalid('A link tracking parameter needs a name.');
      const current = content.global_link_tracking_parameters ?? {};
      const parameters = withEntry(current, command.parameter, command.value ?? undefined);
      if (parameters === current) return document;
      return withContent(document, { ...content, global_link_tracking_parameters: parameters });
    }
    default:
      return invalid(`Unknown command type ${(command as { type: unknown }).type}.`);
  }
}

/**
 * The document after several commands, in order, each seeing the changes of those before it: what
 * an assistant's edits amount to. All or nothing: when one does not fit, `InvalidCommandError`
 * is thrown and no partial result is returned. An empty list returns the input itself.
 */
export function applyCommands(document: EditorDocument, commands: readonly EditorCommand[]): EditorDocument {
  return commands.reduce(applyCommand, document);
}

function requireIndex(index: number, highest: number): void {
  if (!Number.isInteger(index) || index < 0 || index > highest) {
    invalid(`Index ${index} is outside 0 to ${highest}.`);
  }
}

function requireFreeId(content: EmailContent, instanceId: string): void {
  if (instanceId.trim() === '') invalid('A component instance needs an id.');
  if (isInstanceIdTaken(content, instanceId))
    invalid(`The id ${instanceId} is already used by another instance.`);
}

function insertInstance(document: EditorDocument, command: InsertComponentCommand): EditorDocument {
  const { content } = document;
  requireIndex(command.index, content.component_instances.length);
  requireFreeId(content, command.instanceId);
  if (!Number.isInteger(command.componentId) || command.componentId < 1) {
    invalid(`${command.componentId} is not a component id.`);
  }
  // A new instance has no conditional, so its values can only live under null_branch.
  for (const [branch, byLocale] of Object.entries(command.fieldValues)) {
    requireBranchFor(null, branch);
    for (const locale of Object.keys(byLocale)) requireLocale(document, locale);
  }
  const instance: ComponentInstance = {
    id: command.instanceId,
    ...(command.name === undefined ? {} : { name: command.name }),
    component_id: command.componentId,
    conditional_id: null,
    field_values: command.fieldValues,
  };
  return withContent(document, {
    ...content,
    component_instances: content.component_instances.toSpliced(command.index, 0, instance),
  });
}

function renamed(instance: ComponentInstance, name: string): ComponentInstance {
  if (name.trim() === '') {
    if (instance.name === undefined) return instance;
    const { name: _unnamed, ...rest } = instance;
    return rest;
  }
  return instance.name === name ? instance : { ...instance, name };
}

/**
 * Replaces one stored field value with `update(existing)`, creating the branch and locale
 * levels it needs. Keeps the instance when `update` returns `existing`.
 */
function updateFieldValue(
  document: EditorDocument,
  target: FieldTarget,
  update: (existing: FieldValue | undefined) => FieldValue,
): EditorDocument {
  requireLocale(document, target.locale);
  if (target.variable.trim() === '') invalid('A field value needs a liquid variable.');
  return updateInstance(document, target.instanceId, (instance) => {
    requireBranchFor(instance.conditional_id, target.branch);
    const byLocale = instance.field_values[target.branch] ?? {};
    const byVariable = byLocale[target.locale] ?? {};
    const existing = byVariable[target.variable];
    const updated = update(existing);
    if (updated === existing) return instance;
    const field_values: FieldValues = withEntry(
      instance.field_values,
      target.branch,
      withEntry(byLocale, target.locale, withEntry(byVariable, target.variable, updated)),
    );
    return { ...instance, field_values };
  });
}

function withLinkTrackingParameter(
  existing: FieldValue | undefined,
  command: SetLinkTrackingParameterCommand,
): FieldValue {
  // Parameters belong to a stored value; inventing a value here would override the field's default.
  if (existing === undefined) invalid(`The field ${command.variable} has no stored value to track.`);
  if (command.parameter.trim() === '') invalid('A link tracking parameter needs a name.');
  const current = existing.link_tracking_parameters ?? {};
  const parameters = withEntry(current, command.parameter, command.value ?? undefined);
  return parameters === current
    ? existing
    : withRecordOrNone(existing, 'link_tracking_parameters', parameters);
}

type TextPart = 'subject' | 'preheader';

function updateBranchedText(
  document: EditorDocument,
  part: TextPart,
  update: (text: BranchedText) => BranchedText,
): EditorDocument {
  const current = document.content[part];
  const updated = update(current);
  if (updated === current) return document;
  return withContent(document, { ...document.content, [part]: updated });
}

function withText(
  document: EditorDocument,
  text: BranchedText,
  edit: { branch: string; locale: string; text: string },
): BranchedText {
  requireLocale(document, edit.locale);
  requireBranchFor(text.conditional_id, edit.branch);
  const byLocale = text.branch_content[edit.branch] ?? {};
  const branch_content = withEntry(
    text.branch_content,
    edit.branch,
    withEntry(byLocale, edit.locale, edit.text),
  );
  return branch_content === text.branch_content ? text : { ...text, branch_content };
}

function withConditional(text: BranchedText, choice: ConditionalChoice): BranchedText {
  const branch_content = rebranch(text.branch_content, text.conditional_id, choice);
  if (branch_content === text.branch_content) return text;
  return { conditional_id: choice.conditionalId, branch_content };
}

/** Applies `update` to the locale map of every branch; keeps branches whose map did not change. */
function mapBranchLocales<T>(
  byBranch: Record<string, Record<string, T>>,
  update: (byLocale: Record<string, T>) => Record<string, T>,
): Record<string, Record<string, T>> {
  let result = byBranch;
  for (const [branch, byLocale] of Object.entries(byBranch)) {
    result = withEntry(result, branch, update(byLocale));
  }
  return result;
}

/** Removing a locale drops its values everywhere, since nothing renders them any more; undo restores them. */
function removeLocale(document: EditorDocument, locale: string): EditorDocument {
  requireLocale(document, locale);
  if (locale === document.defaultLocale)
    invalid(`${locale} is the default locale; choose another default first.`);
  const withoutLocale = <T>(byLocale: Record<string, T>) => withEntry<T>(byLocale, locale, undefined);
  const content = updateEveryInstance(document.content, (instance) => {
    const field_values = mapBranchLocales(instance.field_values, withoutLocale);
    const hidden = instance.hidden_from_locales ?? {};
    const withoutHidden = withEntry<boolean>(hidden, locale, undefined);
    const updated = field_values === instance.field_values ? instance : { ...instance, field_values };
    return withoutHidden === hidden
      ? updated
      : withRecordOrNone(updated, 'hidden_from_locales', withoutHidden);
  });
  const withoutInText = (text: BranchedText) => ({
    ...text,
    branch_content: mapBranchLocales(text.branch_content, withoutLocale),
  });
  return {
    ...document,
    locales: document.locales.filter((code) => code !== locale),
    content: {
      ...content,
      subject: withoutInText(content.subject),
      preheader: withoutInText(content.preheader),
    },
  };
}

/**
 * Makes `toLocale` start from the default locale's values, branch by branch. Branches where the
 * default locale has nothing are left alone rather than emptied, so nothing is lost there.
 */
function copyLocaleValues(document: EditorDocument, command: CopyLocaleValuesCommand): EditorDocument {
  const { toLocale, instanceId } = command;
  requireLocale(document, toLocale);
  if (toLocale === document.defaultLocale)
    invalid(`${toLocale} is the default locale; copy into another locale.`);
  const fromDefault = <T>(byLocale: Record<string, T>) => {
    const source = byLocale[document.defaultLocale];
    return source === undefined ? byLocale : withEntry<T>(byLocale, toLocale, source);
  };
  const copyInto = (instance: ComponentInstance): ComponentInstance => {
    const field_values = mapBranchLocales(instance.field_values, fromDefault);
    return field_values === instance.field_values ? instance : { ...instance, field_values };
  };
  if (instanceId !== null) {
    findInstance(document.content, instanceId);
    return updateInstance(document, instanceId, copyInto);
  }
  const copyText = (text: BranchedText): BranchedText => {
    const branch_content = mapBranchLocales(text.branch_content, fromDefault);
    return branch_content === text.branch_content ? text : { ...text, branch_content };
  };
  const content = updateEveryInstance(document.content, copyInto);
  const subject = copyText(content.subject);
  const preheader = copyText(content.preheader);
  if (content === document.content && subject === content.subject && preheader === content.preheader)
    return document;
  return withContent(document, {
    ...content,
    subject,
    preheader,
  });
}
