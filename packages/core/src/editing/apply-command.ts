import { branchedTextStatus, copyLocaleContent, withBranchedTextStatus } from '../content/copy-locale.ts';
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
  SetTranslationStatusCommand,
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
        existing?.value === command.value ? existing : edited(existing, command.value),
      );
    case 'setFieldValues':
      return Object.entries(command.values).reduce(
        (current, [variable, value]) =>
          updateFieldValue(current, { ...command, variable }, (existing) =>
            existing?.value === value ? existing : edited(existing, value),
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
    case 'addLocale': {
      if (command.locale.trim() === '') invalid('A locale needs a code.');
      if (document.locales.includes(command.locale))
        invalid(`The email already has the locale ${command.locale}.`);
      const from = command.fromLocale ?? document.defaultLocale;
      requireLocale(document, from);
      // The new locale starts from the source's values (images, links, texts), to translate from there.
      return {
        ...document,
        locales: [...document.locales, command.locale],
        content: copyLocaleContent(content, from, command.locale, { mode: 'fill' }),
      };
    }
    case 'removeLocale':
      return removeLocale(document, command.locale);
    case 'setDefaultLocale':
      requireLocale(document, command.locale);
      if (command.locale === document.defaultLocale) return document;
      return { ...document, defaultLocale: command.locale };
    case 'copyLocaleValues':
      return copyLocaleValues(document, command);
    case 'setTranslationStatus':
      return setTranslationStatus(document, command);
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
  if (branch_content === text.branch_content) return text;
  const changed = { ...text, branch_content };
  // Only a text with a status (copied or translated) is marked: see `edited`.
  return branchedTextStatus(text, edit.branch, edit.locale) === undefined
    ? changed
    : withBranchedTextStatus(changed, edit.branch, edit.locale, 'edited');
}

/**
 * A value a person changed. One that was copied (or translated) becomes `edited`, so the
 * "untranslated" check takes it as a translation even when it ends up reading like the source. A
 * value without a status stays without one, judged by its text as before: marking depends on the
 * value alone, never on which locale is the default, so an edit and a change of default locale
 * give the same email in either order (and two editors' saves merge).
 */
function edited(existing: FieldValue | undefined, value: FieldValue['value']): FieldValue {
  return existing?.translation_status === undefined
    ? { ...existing, value }
    : { ...existing, value, translation_status: 'edited' };
}

function withConditional(text: BranchedText, choice: ConditionalChoice): BranchedText {
  // Texts and their translation statuses move together, so each branch keeps its own text's status.
  const paired = Object.fromEntries(
    Object.entries(text.branch_content).map(([branch, texts]) => [
      branch,
      { texts, statuses: text.translation_status?.[branch] },
    ]),
  );
  const rebranched = rebranch(paired, text.conditional_id, choice);
  if (rebranched === paired) return text;
  const branch_content: BranchedText['branch_content'] = {};
  const translation_status: NonNullable<BranchedText['translation_status']> = {};
  for (const [branch, { texts, statuses }] of Object.entries(rebranched)) {
    branch_content[branch] = texts;
    if (statuses !== undefined) translation_status[branch] = statuses;
  }
  return {
    conditional_id: choice.conditionalId,
    branch_content,
    ...(Object.keys(translation_status).length > 0 ? { translation_status } : {}),
  };
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
 * Makes `toLocale` start from another locale's values (the default one unless named), branch by
 * branch, each marked `copied`. Branches where the source has nothing are left alone rather than
 * emptied, so nothing is lost there.
 */
function copyLocaleValues(document: EditorDocument, command: CopyLocaleValuesCommand): EditorDocument {
  const { toLocale, instanceId } = command;
  const from = command.fromLocale ?? document.defaultLocale;
  requireLocale(document, toLocale);
  requireLocale(document, from);
  if (toLocale === document.defaultLocale)
    invalid(`${toLocale} is the default locale; copy into another locale.`);
  if (from === toLocale) invalid(`Copy ${toLocale} from another locale.`);
  if (instanceId !== null) findInstance(document.content, instanceId);
  const content = copyLocaleContent(document.content, from, toLocale, { instanceId });
  return content === document.content ? document : withContent(document, content);
}

function setTranslationStatus(
  document: EditorDocument,
  command: SetTranslationStatusCommand,
): EditorDocument {
  const { target } = command;
  const status = command.status ?? undefined;
  if (target.kind !== 'field') {
    requireLocale(document, target.locale);
    return updateBranchedText(document, target.kind, (text) => {
      requireBranchFor(text.conditional_id, target.branch);
      if (text.branch_content[target.branch]?.[target.locale] === undefined)
        invalid(`The ${target.kind} has no text in ${target.locale} to mark.`);
      return withBranchedTextStatus(text, target.branch, target.locale, status);
    });
  }
  return updateFieldValue(document, target, (existing) => {
    // A status belongs to a stored value; inventing one here would override the field's default.
    if (existing === undefined) invalid(`The field ${target.variable} has no stored value to mark.`);
    if (existing.translation_status === status) return existing;
    if (status !== undefined) return { ...existing, translation_status: status };
    const { translation_status: _removed, ...rest } = existing;
    return rest;
  });
}
