import { valuesEqual } from './content-permissions.ts';
import type {
  BranchedText,
  ComponentInstance,
  EmailContent,
  FieldValue,
  FieldValues,
  TranslationStatus,
} from './types.ts';

/**
 * Copying one locale's content into another: what a new locale starts from (so its images, links,
 * alignment and texts are the source locale's until someone translates them) and what "Copy from…"
 * does in the editor. Every copied value is marked `copied`, so the "untranslated" check knows it
 * still holds the source's text.
 */
export interface CopyLocaleOptions {
  /** Copy this instance's values only (no subject, preheader or other instance); every instance when absent. */
  instanceId?: string | null;
  /**
   * `replace` (the default): in each branch where the source locale has values, the target's become
   * a copy of them. `fill`: only what the target lacks (a value or text absent, or a blank text) is
   * copied, so nothing the target already holds is overwritten.
   */
  mode?: 'replace' | 'fill';
}

const blank = (value: unknown) => value === undefined || (typeof value === 'string' && value.trim() === '');

function copiedValue(value: FieldValue): FieldValue {
  const { translation_status: _sourceStatus, ...rest } = structuredClone(value);
  return { ...rest, translation_status: 'copied' };
}

function copiedFieldValues(
  fieldValues: FieldValues,
  from: string,
  to: string,
  mode: 'replace' | 'fill',
): FieldValues {
  let result = fieldValues;
  for (const [branch, byLocale] of Object.entries(fieldValues)) {
    const source = byLocale[from];
    if (source === undefined) continue;
    const current = byLocale[to] ?? {};
    let next: Record<string, FieldValue>;
    if (mode === 'replace') {
      next = Object.fromEntries(
        Object.entries(source).map(([variable, value]) => [variable, copiedValue(value)]),
      );
    } else {
      next = { ...current };
      for (const [variable, value] of Object.entries(source)) {
        if (blank(current[variable]?.value)) next[variable] = copiedValue(value);
      }
    }
    if (byLocale[to] !== undefined && valuesEqual(next, byLocale[to])) continue;
    result = { ...result, [branch]: { ...byLocale, [to]: next } };
  }
  return result;
}

function copiedInstance(
  instance: ComponentInstance,
  from: string,
  to: string,
  mode: 'replace' | 'fill',
): ComponentInstance {
  const field_values = copiedFieldValues(instance.field_values ?? {}, from, to, mode);
  return field_values === instance.field_values ? instance : { ...instance, field_values };
}

function copiedText(text: BranchedText, from: string, to: string, mode: 'replace' | 'fill'): BranchedText {
  let branchContent = text.branch_content;
  let statuses = text.translation_status;
  for (const [branch, byLocale] of Object.entries(text.branch_content ?? {})) {
    const source = byLocale[from];
    if (source === undefined) continue;
    if (mode === 'fill' && !blank(byLocale[to])) continue;
    const status = statuses?.[branch]?.[to];
    if (byLocale[to] === source && status === 'copied') continue;
    if (byLocale[to] !== source)
      branchContent = { ...branchContent, [branch]: { ...byLocale, [to]: source } };
    if (status !== 'copied') {
      statuses = { ...statuses, [branch]: { ...statuses?.[branch], [to]: 'copied' } };
    }
  }
  if (branchContent === text.branch_content && statuses === text.translation_status) return text;
  return {
    ...text,
    branch_content: branchContent,
    ...(statuses === undefined ? {} : { translation_status: statuses }),
  };
}

/**
 * The content with `from`'s values copied into `to`: every branch of every instance (the container
 * included) and the subject and preheader, or one instance's values. Values are copied whole (text,
 * image, link, alignment, link tracking parameters), each marked `copied`. A branch where `from` has
 * nothing is left as it is. Pure: the input is never modified, and the input itself is returned
 * when nothing changes.
 */
export function copyLocaleContent(
  content: EmailContent,
  from: string,
  to: string,
  options: CopyLocaleOptions = {},
): EmailContent {
  if (from === to) return content;
  const mode = options.mode ?? 'replace';
  const instanceId = options.instanceId ?? null;
  const copy = (instance: ComponentInstance) =>
    instanceId === null || instance.id === instanceId ? copiedInstance(instance, from, to, mode) : instance;
  const container = copy(content.container_component_instance);
  const instances = content.component_instances.map(copy);
  const subject = instanceId === null ? copiedText(content.subject, from, to, mode) : content.subject;
  const preheader = instanceId === null ? copiedText(content.preheader, from, to, mode) : content.preheader;
  const unchanged =
    container === content.container_component_instance &&
    instances.every((instance, index) => instance === content.component_instances[index]) &&
    subject === content.subject &&
    preheader === content.preheader;
  if (unchanged) return content;
  return {
    ...content,
    subject,
    preheader,
    container_component_instance: container,
    component_instances: instances,
  };
}

/** The content with each added locale (in `locales`, not in `previousLocales`) filled from `source`. */
export function copyIntoAddedLocales(
  content: EmailContent,
  options: { previousLocales: readonly string[]; locales: readonly string[]; source: string },
): EmailContent {
  return options.locales
    .filter((locale) => !options.previousLocales.includes(locale) && locale !== options.source)
    .reduce(
      (current, locale) => copyLocaleContent(current, options.source, locale, { mode: 'fill' }),
      content,
    );
}

/** The translation status of a subject or preheader text, when it has one. */
export function branchedTextStatus(
  text: BranchedText | undefined,
  branch: string,
  locale: string,
): TranslationStatus | undefined {
  return text?.translation_status?.[branch]?.[locale];
}

/** The text with one status set (or removed with `undefined`); the same text when unchanged. */
export function withBranchedTextStatus(
  text: BranchedText,
  branch: string,
  locale: string,
  status: TranslationStatus | undefined,
): BranchedText {
  if (branchedTextStatus(text, branch, locale) === status) return text;
  const byLocale = { ...text.translation_status?.[branch] };
  if (status === undefined) delete byLocale[locale];
  else byLocale[locale] = status;
  const statuses = { ...text.translation_status };
  if (Object.keys(byLocale).length === 0) delete statuses[branch];
  else statuses[branch] = byLocale;
  if (Object.keys(statuses).length > 0) return { ...text, translation_status: statuses };
  const { translation_status: _none, ...rest } = text;
  return rest;
}

/**
 * How many values of `to` a "Copy from…" of `from` would replace that someone worked on: values
 * marked translated or edited, and values without a status that differ from the source's (they
 * may be translations made before statuses existed). Untouched copies are not counted: replacing
 * them loses nothing. What the editor asks about before copying.
 */
export function workOverwrittenByCopy(content: EmailContent, from: string, to: string): number {
  if (from === to) return 0;
  const isWork = (status: TranslationStatus | undefined, same: boolean) =>
    status === 'translated' || status === 'edited' || (status === undefined && !same);
  let count = 0;
  for (const instance of [content.container_component_instance, ...content.component_instances]) {
    for (const byLocale of Object.values(instance.field_values ?? {})) {
      const source = byLocale[from];
      if (source === undefined) continue;
      for (const [variable, value] of Object.entries(byLocale[to] ?? {})) {
        const same = source[variable] !== undefined && valuesEqual(source[variable].value, value.value);
        if (!(same && value.translation_status === 'copied') && isWork(value.translation_status, same))
          count += 1;
      }
    }
  }
  for (const text of [content.subject, content.preheader]) {
    for (const [branch, byLocale] of Object.entries(text.branch_content ?? {})) {
      const source = byLocale[from];
      const target = byLocale[to];
      if (source === undefined || target === undefined || target.trim() === '') continue;
      if (isWork(text.translation_status?.[branch]?.[to], source === target)) count += 1;
    }
  }
  return count;
}
