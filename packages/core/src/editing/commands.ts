import type { FieldValue, FieldValues, TranslationStatus } from '../content/types.ts';
import type { PermissionKey } from '../permissions.ts';

/**
 * Every change the editor makes to an email is one of these plain objects, so a drag, a key, a
 * button and a test all say the same thing, and history can record it. Build them with the
 * factory functions below; apply them with `applyCommand` or an editor's `dispatch`.
 */

export interface InsertComponentCommand {
  type: 'insertComponent';
  componentId: number;
  /** Where the new instance goes in the body, 0 to the current number of instances. */
  index: number;
  instanceId: string;
  name?: string;
  fieldValues: FieldValues;
}

export interface MoveComponentCommand {
  type: 'moveComponent';
  instanceId: string;
  /** The instance's index once moved. */
  toIndex: number;
}

export interface RemoveComponentCommand {
  type: 'removeComponent';
  instanceId: string;
}

export interface DuplicateComponentCommand {
  type: 'duplicateComponent';
  instanceId: string;
  newInstanceId: string;
}

export interface RenameComponentCommand {
  type: 'renameComponent';
  instanceId: string;
  /** A blank name removes the name, so the editor shows the component's label again. */
  name: string;
}

/** Addresses one stored field value. The container is addressed by its own instance id. */
export interface FieldTarget {
  instanceId: string;
  branch: string;
  locale: string;
  variable: string;
}

export interface SetFieldValueCommand extends FieldTarget {
  type: 'setFieldValue';
  value: FieldValue['value'];
}

/** Several values of one instance in one branch and locale, as one step: what a feed run brings. */
export interface SetFieldValuesCommand extends Omit<FieldTarget, 'variable'> {
  type: 'setFieldValues';
  /** Values by liquid variable. */
  values: Record<string, FieldValue['value']>;
}

export interface SetLinkTrackingParameterCommand extends FieldTarget {
  type: 'setLinkTrackingParameter';
  parameter: string;
  /** null removes the parameter. */
  value: string | null;
}

/** A conditional to attach (its id and its branch keys, in order), or null to detach. */
export interface ConditionalChoice {
  conditionalId: number | null;
  /** The conditional's branch keys in its own order; ignored (may be empty) when detaching. */
  branchKeys: string[];
}

export interface SetConditionalCommand extends ConditionalChoice {
  type: 'setConditional';
  instanceId: string;
}

export interface SetSubjectCommand {
  type: 'setSubject';
  branch: string;
  locale: string;
  text: string;
}

export interface SetPreheaderCommand {
  type: 'setPreheader';
  branch: string;
  locale: string;
  text: string;
}

export interface SetSubjectConditionalCommand extends ConditionalChoice {
  type: 'setSubjectConditional';
}

export interface SetPreheaderConditionalCommand extends ConditionalChoice {
  type: 'setPreheaderConditional';
}

/** Adds a locale, its values copied from another one (the default locale unless named) to translate from. */
export interface AddLocaleCommand {
  type: 'addLocale';
  locale: string;
  /** The locale whose values the new one starts from; the default locale when absent. */
  fromLocale?: string;
}

export interface RemoveLocaleCommand {
  type: 'removeLocale';
  locale: string;
}

export interface SetDefaultLocaleCommand {
  type: 'setDefaultLocale';
  locale: string;
}

/** "Copy from…": one locale's values replace another's, each marked `copied`. */
export interface CopyLocaleValuesCommand {
  type: 'copyLocaleValues';
  toLocale: string;
  /** One instance, or null for every instance plus the subject and preheader. */
  instanceId: string | null;
  /** The locale copied from; the default locale when absent. */
  fromLocale?: string;
}

/** A translatable value: a field of an instance, or the subject or preheader, in one branch and locale. */
export type TranslationStatusTarget =
  | ({ kind: 'field' } & FieldTarget)
  | { kind: 'subject' | 'preheader'; branch: string; locale: string };

/**
 * Marks a value as translated (or edited, or copied), or removes its status with null: what
 * "Keep as translated" does for a copied text that stays the same in the locale (a brand name).
 */
export interface SetTranslationStatusCommand {
  type: 'setTranslationStatus';
  target: TranslationStatusTarget;
  status: TranslationStatus | null;
}

export interface SetHiddenInLocaleCommand {
  type: 'setHiddenInLocale';
  instanceId: string;
  locale: string;
  hidden: boolean;
}

export interface SetGlobalLinkTrackingParameterCommand {
  type: 'setGlobalLinkTrackingParameter';
  parameter: string;
  /** null removes the parameter. */
  value: string | null;
}

export type EditorCommand =
  | InsertComponentCommand
  | MoveComponentCommand
  | RemoveComponentCommand
  | DuplicateComponentCommand
  | RenameComponentCommand
  | SetFieldValueCommand
  | SetFieldValuesCommand
  | SetLinkTrackingParameterCommand
  | SetConditionalCommand
  | SetSubjectCommand
  | SetPreheaderCommand
  | SetSubjectConditionalCommand
  | SetPreheaderConditionalCommand
  | AddLocaleCommand
  | RemoveLocaleCommand
  | SetDefaultLocaleCommand
  | CopyLocaleValuesCommand
  | SetTranslationStatusCommand
  | SetHiddenInLocaleCommand
  | SetGlobalLinkTrackingParameterCommand;

export type EditorCommandType = EditorCommand['type'];

/**
 * The permission each command needs, the same keys the server checks when it saves: editing
 * values needs `update_emails`; changing which components the email has, or their order, needs
 * `add_remove_reorder_email_components`; attaching or detaching a conditional (on a component,
 * the subject or the preheader) needs `add_remove_conditional_from_components`; adding or
 * removing a locale needs `add_remove_locales_from_emails`. Choosing the default locale among
 * the existing ones adds and removes nothing, so it is a value edit.
 */
export const commandPermissions: Readonly<Record<EditorCommandType, PermissionKey>> = {
  insertComponent: 'add_remove_reorder_email_components',
  moveComponent: 'add_remove_reorder_email_components',
  removeComponent: 'add_remove_reorder_email_components',
  duplicateComponent: 'add_remove_reorder_email_components',
  renameComponent: 'update_emails',
  setFieldValue: 'update_emails',
  setFieldValues: 'update_emails',
  setLinkTrackingParameter: 'update_emails',
  setConditional: 'add_remove_conditional_from_components',
  setSubject: 'update_emails',
  setPreheader: 'update_emails',
  setSubjectConditional: 'add_remove_conditional_from_components',
  setPreheaderConditional: 'add_remove_conditional_from_components',
  addLocale: 'add_remove_locales_from_emails',
  removeLocale: 'add_remove_locales_from_emails',
  setDefaultLocale: 'update_emails',
  copyLocaleValues: 'update_emails',
  setTranslationStatus: 'update_emails',
  setHiddenInLocale: 'update_emails',
  setGlobalLinkTrackingParameter: 'update_emails',
};

/** The permission key a command needs. */
export function permissionFor(command: EditorCommand): PermissionKey {
  return commandPermissions[command.type];
}

/**
 * A fresh instance id. Kept in the factory, not in `applyCommand`, so a command carries its id
 * and applying it twice (redo, tests, a replay) gives the same document.
 */
function randomInstanceId(): string {
  // `crypto` is a global in browsers and Node; core's type setup declares no DOM, so reach it through globalThis.
  return (globalThis as unknown as { crypto: { randomUUID(): string } }).crypto.randomUUID();
}

export function insertComponent(options: {
  componentId: number;
  index: number;
  instanceId?: string;
  name?: string;
  fieldValues?: FieldValues;
}): InsertComponentCommand {
  const { componentId, index, name } = options;
  return {
    type: 'insertComponent',
    componentId,
    index,
    instanceId: options.instanceId ?? randomInstanceId(),
    ...(name === undefined ? {} : { name }),
    fieldValues: options.fieldValues ?? {},
  };
}

export function moveComponent(instanceId: string, toIndex: number): MoveComponentCommand {
  return { type: 'moveComponent', instanceId, toIndex };
}

export function removeComponent(instanceId: string): RemoveComponentCommand {
  return { type: 'removeComponent', instanceId };
}

export function duplicateComponent(
  instanceId: string,
  newInstanceId: string = randomInstanceId(),
): DuplicateComponentCommand {
  return { type: 'duplicateComponent', instanceId, newInstanceId };
}

export function renameComponent(instanceId: string, name: string): RenameComponentCommand {
  return { type: 'renameComponent', instanceId, name };
}

export function setFieldValue(target: FieldTarget, value: FieldValue['value']): SetFieldValueCommand {
  return { type: 'setFieldValue', ...target, value };
}

export function setFieldValues(
  target: Omit<FieldTarget, 'variable'>,
  values: Record<string, FieldValue['value']>,
): SetFieldValuesCommand {
  return { type: 'setFieldValues', ...target, values };
}

export function setLinkTrackingParameter(
  target: FieldTarget,
  parameter: string,
  value: string | null,
): SetLinkTrackingParameterCommand {
  return { type: 'setLinkTrackingParameter', ...target, parameter, value };
}

export function setConditional(
  instanceId: string,
  conditionalId: number | null,
  branchKeys: string[] = [],
): SetConditionalCommand {
  return { type: 'setConditional', instanceId, conditionalId, branchKeys };
}

export function setSubject(branch: string, locale: string, text: string): SetSubjectCommand {
  return { type: 'setSubject', branch, locale, text };
}

export function setPreheader(branch: string, locale: string, text: string): SetPreheaderCommand {
  return { type: 'setPreheader', branch, locale, text };
}

export function setSubjectConditional(
  conditionalId: number | null,
  branchKeys: string[] = [],
): SetSubjectConditionalCommand {
  return { type: 'setSubjectConditional', conditionalId, branchKeys };
}

export function setPreheaderConditional(
  conditionalId: number | null,
  branchKeys: string[] = [],
): SetPreheaderConditionalCommand {
  return { type: 'setPreheaderConditional', conditionalId, branchKeys };
}

export function addLocale(locale: string, fromLocale?: string): AddLocaleCommand {
  return { type: 'addLocale', locale, ...(fromLocale === undefined ? {} : { fromLocale }) };
}

export function removeLocale(locale: string): RemoveLocaleCommand {
  return { type: 'removeLocale', locale };
}

export function setDefaultLocale(locale: string): SetDefaultLocaleCommand {
  return { type: 'setDefaultLocale', locale };
}

export function copyLocaleValues(
  toLocale: string,
  instanceId: string | null = null,
  fromLocale?: string,
): CopyLocaleValuesCommand {
  return {
    type: 'copyLocaleValues',
    toLocale,
    instanceId,
    ...(fromLocale === undefined ? {} : { fromLocale }),
  };
}

export function setTranslationStatus(
  target: TranslationStatusTarget,
  status: TranslationStatus | null,
): SetTranslationStatusCommand {
  return { type: 'setTranslationStatus', target, status };
}

export function setHiddenInLocale(
  instanceId: string,
  locale: string,
  hidden: boolean,
): SetHiddenInLocaleCommand {
  return { type: 'setHiddenInLocale', instanceId, locale, hidden };
}

export function setGlobalLinkTrackingParameter(
  parameter: string,
  value: string | null,
): SetGlobalLinkTrackingParameterCommand {
  return { type: 'setGlobalLinkTrackingParameter', parameter, value };
}
