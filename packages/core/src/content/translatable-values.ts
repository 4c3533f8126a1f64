import { validateFieldValue } from '../fields/index.ts';
import type { FieldDefinition } from '../fields/types.ts';
import type { ComponentDefinition } from '../render/design-system.ts';
import { richTextContent } from '../render/rich-text.ts';
import { withBranchedTextStatus } from './copy-locale.ts';
import {
  type BranchedText,
  type ComponentInstance,
  type EmailContent,
  nullBranch,
  type TranslationStatus,
} from './types.ts';

/**
 * Translatable values: the texts of an email a translator translates, each under a stable key.
 * They are the subject and the preheader, and every `text` and `rich_text` field of every component
 * instance (the container included), in every branch of its conditional. Spreadsheet and XLIFF
 * round trips, the Localization panel, the per-locale checks and AI translation all read them here.
 *
 * Key format (stable for as long as the instance, field and branch exist; no part holds a dot but
 * the branch, which is always last):
 *   subject.<branch>                            the subject in one branch
 *   preheader.<branch>                          the preheader in one branch
 *   <instance id>.<liquid_variable>.<branch>    one field of one component instance in one branch
 * `<branch>` is `null_branch` for content without a conditional, else the conditional's branch key.
 * Instance ids are UUIDs and liquid variables are identifiers, so neither holds a dot.
 */

/** Where a translatable value lives in the content. */
export type TranslatableValueSource =
  | { kind: 'subject' | 'preheader'; branch: string }
  | { kind: 'field'; instanceId: string; liquidVariable: string; branch: string };

/** How a value is written: plain text, or rich text (HTML). */
export type TranslatableValueFormat = 'text' | 'rich_text';

export interface TranslatableValue {
  /** The stable key (see the key format above). */
  key: string;
  source: TranslatableValueSource;
  /** `Subject`, `Preheader`, or the instance's name, else its component's label (as the editor names it). */
  componentLabel: string;
  /** `Subject`, `Preheader`, or the field's label. */
  fieldLabel: string;
  format: TranslatableValueFormat;
  /** The field's definition, whose validations apply in every locale; null for subject and preheader. */
  definition: FieldDefinition | null;
  /** The field is marked `hidden_from_ai`: AI features must leave it alone. */
  hiddenFromAi: boolean;
  /** Locales the instance is hidden from: its values there are never shown, so never counted as missing. */
  hiddenFromLocales: readonly string[];
  /** The stored text per locale; a locale storing no text (or a non-text value) is absent. */
  texts: Readonly<Record<string, string>>;
  /** The stored translation status per locale (see `TranslationStatus`); a locale without one is absent. */
  statuses?: Readonly<Record<string, TranslationStatus>>;
  /** What a reader sees when a locale stores nothing: the field's default value ('' for subject and preheader). */
  fallbackText: string;
}

export interface CollectTranslatableValuesInput {
  content: EmailContent;
  /** The design system's components, with the email's brand profile applied (labels, defaults). */
  components: readonly ComponentDefinition[];
  /** The branch keys of a conditional, when known; the branches present in the content are added. */
  branchKeysOf?: (conditionalId: number) => readonly string[] | undefined;
}

const instanceIdPattern = /^[^.]+$/;

/** The stable key of a translatable value. */
export function translatableValueKey(source: TranslatableValueSource): string {
  return source.kind === 'field'
    ? `${source.instanceId}.${source.liquidVariable}.${source.branch}`
    : `${source.kind}.${source.branch}`;
}

/** Where a key points, or null when it is not a key in the format above. */
export function parseTranslatableValueKey(key: string): TranslatableValueSource | null {
  const firstDot = key.indexOf('.');
  if (firstDot <= 0) return null;
  const head = key.slice(0, firstDot);
  const rest = key.slice(firstDot + 1);
  if (head === 'subject' || head === 'preheader') {
    return rest === '' ? null : { kind: head, branch: rest };
  }
  const secondDot = rest.indexOf('.');
  if (secondDot <= 0 || !instanceIdPattern.test(head)) return null;
  const branch = rest.slice(secondDot + 1);
  if (branch === '') return null;
  return { kind: 'field', instanceId: head, liquidVariable: rest.slice(0, secondDot), branch };
}

/** The branches a piece of content has: `null_branch` without a conditional, else known and present ones. */
function branchesOf(
  conditionalId: number | null | undefined,
  present: Record<string, unknown> | undefined,
  branchKeysOf: CollectTranslatableValuesInput['branchKeysOf'],
): string[] {
  if (conditionalId === null || conditionalId === undefined) return [nullBranch];
  const branches = [...(branchKeysOf?.(conditionalId) ?? [])];
  for (const branch of Object.keys(present ?? {})) if (!branches.includes(branch)) branches.push(branch);
  return branches;
}

function branchedTexts(text: BranchedText | undefined, branch: string): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [locale, value] of Object.entries(text?.branch_content?.[branch] ?? {})) {
    if (typeof value === 'string') texts[locale] = value;
  }
  return texts;
}

function fieldTexts(instance: ComponentInstance, branch: string, variable: string): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [locale, values] of Object.entries(instance.field_values?.[branch] ?? {})) {
    const value = values?.[variable]?.value;
    if (typeof value === 'string') texts[locale] = value;
  }
  return texts;
}

function fieldStatuses(
  instance: ComponentInstance,
  branch: string,
  variable: string,
): Record<string, TranslationStatus> {
  const statuses: Record<string, TranslationStatus> = {};
  for (const [locale, values] of Object.entries(instance.field_values?.[branch] ?? {})) {
    const status = values?.[variable]?.translation_status;
    if (status !== undefined) statuses[locale] = status;
  }
  return statuses;
}

function isTranslatableField(definition: FieldDefinition): boolean {
  return definition.type === 'text' || definition.type === 'rich_text';
}

/**
 * Every translatable value of the content, in reading order: subject and preheader (each branch),
 * then the container and the instances in order, each branch, each text or rich-text field in the
 * component's order. Instances of components the list does not have are skipped.
 */
export function collectTranslatableValues(input: CollectTranslatableValuesInput): TranslatableValue[] {
  const values: TranslatableValue[] = [];
  for (const kind of ['subject', 'preheader'] as const) {
    const text = input.content[kind];
    const label = kind === 'subject' ? 'Subject' : 'Preheader';
    for (const branch of branchesOf(text?.conditional_id, text?.branch_content, input.branchKeysOf)) {
      const source: TranslatableValueSource = { kind, branch };
      values.push({
        key: translatableValueKey(source),
        source,
        componentLabel: label,
        fieldLabel: label,
        format: 'text',
        definition: null,
        hiddenFromAi: false,
        hiddenFromLocales: [],
        texts: branchedTexts(text, branch),
        statuses: { ...text?.translation_status?.[branch] },
        fallbackText: '',
      });
    }
  }

  const components = new Map(input.components.map((component) => [component.id, component]));
  for (const instance of [input.content.container_component_instance, ...input.content.component_instances]) {
    const component = components.get(instance.component_id);
    if (!component) continue;
    const fields = component.field_definitions.filter(isTranslatableField);
    if (fields.length === 0) continue;
    const componentLabel = instance.name?.trim() || component.label || component.name;
    const hiddenFromLocales = Object.entries(instance.hidden_from_locales ?? {})
      .filter(([, hidden]) => hidden === true)
      .map(([locale]) => locale);
    for (const branch of branchesOf(instance.conditional_id, instance.field_values, input.branchKeysOf)) {
      for (const definition of fields) {
        const source: TranslatableValueSource = {
          kind: 'field',
          instanceId: instance.id,
          liquidVariable: definition.liquid_variable,
          branch,
        };
        values.push({
          key: translatableValueKey(source),
          source,
          componentLabel,
          fieldLabel: definition.label || definition.liquid_variable,
          format: definition.type === 'rich_text' ? 'rich_text' : 'text',
          definition,
          hiddenFromAi: definition.hidden_from_ai === true,
          hiddenFromLocales,
          texts: fieldTexts(instance, branch, definition.liquid_variable),
          statuses: fieldStatuses(instance, branch, definition.liquid_variable),
          fallbackText: typeof definition.default_value === 'string' ? definition.default_value : '',
        });
      }
    }
  }
  return values;
}

/** The text a reader of the locale sees: the stored one, else the fallback (the field's default). */
export function effectiveText(value: TranslatableValue, locale: string): string {
  return value.texts[locale] ?? value.fallbackText;
}

/** Text a reader reads: worth translating when it holds a letter (numbers, prices and URLs are not). */
const hasLetters = /\p{L}/u;

/** The words of a value, without markup: what lengths, blankness and letters are judged on. */
export function readableText(value: Pick<TranslatableValue, 'format'>, text: string): string {
  return value.format === 'rich_text' ? richTextContent(text) : text;
}

/**
 * Whether a value needs a translation at all: the default locale stores a text holding a letter.
 * A value nobody entered in the default locale shows the design's default in every locale (a logo's
 * alt text, a postal address): it is offered in files, but not counted or reported as missing.
 */
export function needsTranslation(value: TranslatableValue, defaultLocale: string): boolean {
  const source = value.texts[defaultLocale];
  return source !== undefined && hasLetters.test(readableText(value, source));
}

/**
 * Why a locale's value is not a translation, or null when it is one (or needs none): `missing`
 * (nothing or blanks stored), `copied` (copied from another locale and not touched since), or
 * `same_as_default` (no status stored, and the default locale's text unchanged).
 */
export type TranslationGap = 'missing' | 'copied' | 'same_as_default';

/**
 * Whether a value still needs translating into the locale: nothing (or only blanks) stored, a copy
 * nobody translated or edited since, or (for content without statuses) the default locale's text
 * unchanged. A value marked `translated` or `edited` is a translation even when it equals the
 * default locale's text (a brand name). Values that need no translation (see `needsTranslation`),
 * values of instances hidden in the locale, and the default locale itself never have a gap.
 */
export function translationGap(
  value: TranslatableValue,
  locale: string,
  defaultLocale: string,
): TranslationGap | null {
  if (locale === defaultLocale || value.hiddenFromLocales.includes(locale)) return null;
  if (!needsTranslation(value, defaultLocale)) return null;
  const stored = value.texts[locale];
  if (stored === undefined || readableText(value, stored).trim() === '') return 'missing';
  const status = value.statuses?.[locale];
  if (status === 'translated' || status === 'edited') return null;
  if (status === 'copied') return 'copied';
  return stored === value.texts[defaultLocale] ? 'same_as_default' : null;
}

export interface TranslationCompletion {
  /** Values that need a translation in this locale (a default-locale text with letters, instance shown). */
  total: number;
  /** Of those, the ones with a translation: not blank, not an untouched copy, and not the default locale's text unless marked translated or edited. */
  translated: number;
}

/** Per non-default locale, how many of the values needing a translation have one. */
export function translationCompletion(
  values: readonly TranslatableValue[],
  options: { defaultLocale: string; locales: readonly string[] },
): Record<string, TranslationCompletion> {
  const completion: Record<string, TranslationCompletion> = {};
  for (const locale of options.locales) {
    if (locale === options.defaultLocale) continue;
    let total = 0;
    let translated = 0;
    for (const value of values) {
      if (value.hiddenFromLocales.includes(locale) || !needsTranslation(value, options.defaultLocale))
        continue;
      total += 1;
      if (translationGap(value, locale, options.defaultLocale) === null) translated += 1;
    }
    completion[locale] = { total, translated };
  }
  return completion;
}

/** One row of a translation spreadsheet. */
export interface TranslationRow {
  key: string;
  componentLabel: string;
  fieldLabel: string;
  format: TranslatableValueFormat;
  /** The default locale's text as a reader sees it (the stored text, else the field's default). */
  sourceText: string;
  /** Per other locale, its stored text; '' when it stores none. */
  targetTexts: Record<string, string>;
}

/** The rows of a translation spreadsheet: one per value, the default locale first, then the others in order. */
export function translationRows(
  values: readonly TranslatableValue[],
  options: { defaultLocale: string; locales: readonly string[] },
): TranslationRow[] {
  const targets = options.locales.filter((locale) => locale !== options.defaultLocale);
  return values.map((value) => ({
    key: value.key,
    componentLabel: value.componentLabel,
    fieldLabel: value.fieldLabel,
    format: value.format,
    sourceText: effectiveText(value, options.defaultLocale),
    targetTexts: Object.fromEntries(targets.map((locale) => [locale, value.texts[locale] ?? ''])),
  }));
}

/** One imported text: the value's key, the locale, and the text to store. */
export interface TranslationUpdate {
  key: string;
  locale: string;
  text: string;
}

export interface ApplyTranslationsInput {
  content: EmailContent;
  /** `collectTranslatableValues` over the same content. */
  values: readonly TranslatableValue[];
  defaultLocale: string;
  /** The email's locales: updates may only name these (and not the default one). */
  locales: readonly string[];
  updates: readonly TranslationUpdate[];
  /** Longest text accepted, in UTF-16 units, beyond the fields' own validations. */
  maxLength?: { branchedText?: number; fieldValue?: number };
  /**
   * Mark a text equal to the stored one `translated` too: an AI translation that keeps a brand name
   * decided so. Off for files, whose cells hold what was stored when downloaded (copies included):
   * only a text the translator changed is marked there.
   */
  markUnchangedTranslated?: boolean;
}

/** What is wrong with one update (by its index in `updates`). */
export interface TranslationUpdateProblem {
  index: number;
  /** `key` when the key is the problem, `locale` when the locale is, `text` for the text itself. */
  part: 'key' | 'locale' | 'text';
  messages: string[];
}

export interface ApplyTranslationsResult {
  /** The content with the updates applied; the input content when there are problems or nothing changed (texts and statuses). */
  content: EmailContent;
  /** Per locale named by an update: texts that differ from what was stored. */
  changed: Record<string, number>;
  /** Per locale named by an update: texts equal to what was stored. */
  unchanged: Record<string, number>;
  /** Empty when every update is valid; otherwise nothing was applied. */
  problems: TranslationUpdateProblem[];
}

/**
 * Applies translated texts to content, all or nothing: each update must name a known key, a
 * non-default locale of the email, a key and locale no other update names, and a text its field's
 * validations accept (type, lengths, blank, default). Each text written is marked `translated`
 * (with `markUnchangedTranslated`, also one equal to what was stored). The content is not mutated.
 */
export function applyTranslations(input: ApplyTranslationsInput): ApplyTranslationsResult {
  const byKey = new Map(input.values.map((value) => [value.key, value]));
  const emailLocales = new Set(input.locales);
  const problems: TranslationUpdateProblem[] = [];
  const changed: Record<string, number> = {};
  const unchanged: Record<string, number> = {};
  const seen = new Set<string>();
  const accepted: { value: TranslatableValue; update: TranslationUpdate }[] = [];

  input.updates.forEach((update, index) => {
    const value = byKey.get(update.key);
    if (!value) {
      problems.push({
        index,
        part: 'key',
        messages: [
          parseTranslatableValueKey(update.key)
            ? 'is not a translatable value of this email'
            : 'is not a key of a translatable value (subject.<branch>, preheader.<branch> or <instance id>.<field>.<branch>)',
        ],
      });
      return;
    }
    if (!emailLocales.has(update.locale)) {
      problems.push({ index, part: 'locale', messages: ['is not a locale of this email'] });
      return;
    }
    if (update.locale === input.defaultLocale) {
      problems.push({
        index,
        part: 'locale',
        messages: ['is the default locale: its texts are the source, edited in the editor'],
      });
      return;
    }
    const pair = `${update.key}\u0000${update.locale}`;
    if (seen.has(pair)) {
      problems.push({ index, part: 'key', messages: ['is given twice for this locale'] });
      return;
    }
    seen.add(pair);
    const messages = textProblems(value, update.text, input.maxLength);
    if (messages.length > 0) {
      problems.push({ index, part: 'text', messages });
      return;
    }
    const same = value.texts[update.locale] === update.text;
    changed[update.locale] = (changed[update.locale] ?? 0) + (same ? 0 : 1);
    unchanged[update.locale] = (unchanged[update.locale] ?? 0) + (same ? 1 : 0);
    // A text the AI kept as it was (a brand name) is still a translation: its status says so.
    const mark = input.markUnchangedTranslated === true && value.statuses?.[update.locale] !== 'translated';
    if (!same || mark) accepted.push({ value, update });
  });

  if (problems.length > 0 || accepted.length === 0) {
    return { content: input.content, changed, unchanged, problems };
  }
  return { content: withTexts(input.content, accepted), changed, unchanged, problems };
}

function textProblems(
  value: TranslatableValue,
  text: string,
  maxLength: ApplyTranslationsInput['maxLength'],
): string[] {
  const limit = value.source.kind === 'field' ? maxLength?.fieldValue : maxLength?.branchedText;
  // Characters as the API's schema counts them (code points), checked only when it can matter.
  if (limit !== undefined && text.length > limit && [...text].length > limit) {
    return [`must be at most ${limit} characters`];
  }
  return value.definition ? validateFieldValue(value.definition, text) : [];
}

/** A copy of the content with the texts written; only the parts written are copied. */
function withTexts(
  content: EmailContent,
  writes: readonly { value: TranslatableValue; update: TranslationUpdate }[],
): EmailContent {
  const next: EmailContent = { ...content };
  const copiedInstances = new Map<string, ComponentInstance>();
  const instanceCopy = (id: string): ComponentInstance | undefined => {
    const copied = copiedInstances.get(id);
    if (copied) return copied;
    if (next.container_component_instance.id === id) {
      const copy = {
        ...next.container_component_instance,
        field_values: structuredClone(next.container_component_instance.field_values),
      };
      next.container_component_instance = copy;
      copiedInstances.set(id, copy);
      return copy;
    }
    const index = next.component_instances.findIndex((instance) => instance.id === id);
    const original = next.component_instances[index];
    if (!original) return undefined;
    if (next.component_instances === content.component_instances) {
      next.component_instances = [...content.component_instances];
    }
    const copy = { ...original, field_values: structuredClone(original.field_values) };
    next.component_instances[index] = copy;
    copiedInstances.set(id, copy);
    return copy;
  };
  const copiedTexts = new Set<'subject' | 'preheader'>();

  for (const { value, update } of writes) {
    const source = value.source;
    if (source.kind === 'field') {
      const instance = instanceCopy(source.instanceId);
      if (!instance) continue;
      const byLocale = instance.field_values[source.branch] ?? {};
      const fields = byLocale[update.locale] ?? {};
      fields[source.liquidVariable] = {
        ...fields[source.liquidVariable],
        value: update.text,
        translation_status: 'translated',
      };
      byLocale[update.locale] = fields;
      instance.field_values[source.branch] = byLocale;
    } else {
      if (!copiedTexts.has(source.kind)) {
        next[source.kind] = {
          ...content[source.kind],
          branch_content: structuredClone(content[source.kind].branch_content),
        };
        copiedTexts.add(source.kind);
      }
      const branchContent = next[source.kind].branch_content;
      branchContent[source.branch] = { ...branchContent[source.branch], [update.locale]: update.text };
      next[source.kind] = withBranchedTextStatus(
        next[source.kind],
        source.branch,
        update.locale,
        'translated',
      );
    }
  }
  return next;
}
