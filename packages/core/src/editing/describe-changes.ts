import type { BranchedText, ComponentInstance, EmailContent, FieldValue } from '../content/types.ts';
import { sameJsonValue } from './document.ts';

/** One saved state of an email, as a version stores it. */
export interface EmailSnapshot {
  content: EmailContent;
  locales: string[];
}

/** The design system's words for its components and fields. */
export interface ChangeLabels {
  /** The component's label (e.g. "Hero"); undefined for a component the system no longer has. */
  componentLabel: (componentId: number) => string | undefined;
  /** The field's label (e.g. "Headline") by its liquid variable; undefined for an unknown field. */
  fieldLabel: (componentId: number, liquidVariable: string) => string | undefined;
}

export interface DescribedChanges {
  /** Every change, one short phrase each ("edited Hero headline in de-DE"), in document order. */
  phrases: string[];
  /** The phrases as one sentence, capped at `maxPhrases` with "and N more changes". Empty when nothing changed. */
  summary: string;
}

/** How many phrases a summary names before it counts the rest. */
export const defaultMaxPhrases = 4;

/**
 * What changed between two saved states of an email, in words people use: which components were
 * added, removed or moved, which fields of which component were edited (and in which locales,
 * when the email has several), and changes to the subject, preheader, locales and link tracking.
 * `before` null means there was nothing before (the email's first version).
 */
export function describeChanges(
  before: EmailSnapshot | null,
  after: EmailSnapshot,
  labels: ChangeLabels,
  maxPhrases = defaultMaxPhrases,
): DescribedChanges {
  const phrases = before === null ? ['created the email'] : changePhrases(before, after, labels);
  return { phrases, summary: summarize(phrases, maxPhrases) };
}

function summarize(phrases: string[], maxPhrases: number): string {
  if (phrases.length === 0) return '';
  // Naming all but one and then "and 1 more change" reads worse than naming the last one too.
  const shown = phrases.length <= maxPhrases + 1 ? phrases : phrases.slice(0, maxPhrases);
  const hidden = phrases.length - shown.length;
  const sentence = hidden > 0 ? `${shown.join(', ')} and ${hidden} more changes` : shown.join(', ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function changePhrases(before: EmailSnapshot, after: EmailSnapshot, labels: ChangeLabels): string[] {
  const phrases: string[] = [];
  const kept = after.locales.filter((locale) => before.locales.includes(locale));
  const locales: LocaleScope = {
    // Values of an added or removed locale are part of adding or removing it, not edits.
    kept: new Set(kept),
    // In a one-locale email (or when every locale changed) naming the locale says nothing.
    describe: (changed) =>
      kept.length <= 1 || changed.length === 0 || changed.length >= kept.length
        ? ''
        : ` in ${changed.join(', ')}`,
  };

  const beforeById = new Map(before.content.component_instances.map((instance) => [instance.id, instance]));
  const afterById = new Map(after.content.component_instances.map((instance) => [instance.id, instance]));
  const moved = movedInstanceIds(before.content.component_instances, after.content.component_instances);

  phrases.push(
    ...instanceEdits(
      before.content.container_component_instance,
      after.content.container_component_instance,
      labels,
      locales,
    ),
  );

  for (const instance of after.content.component_instances) {
    const previous = beforeById.get(instance.id);
    const label = instanceLabel(instance, labels);
    if (!previous) {
      phrases.push(`added ${label}`);
      continue;
    }
    if (moved.has(instance.id)) phrases.push(`moved ${label}`);
    phrases.push(...instanceEdits(previous, instance, labels, locales));
  }
  for (const instance of before.content.component_instances) {
    if (!afterById.has(instance.id)) phrases.push(`removed ${instanceLabel(instance, labels)}`);
  }

  const subject = textChange('subject', before.content.subject, after.content.subject, locales);
  if (subject) phrases.push(subject);
  const preheader = textChange('preheader', before.content.preheader, after.content.preheader, locales);
  if (preheader) phrases.push(preheader);

  const addedLocales = after.locales.filter((locale) => !before.locales.includes(locale));
  const removedLocales = before.locales.filter((locale) => !after.locales.includes(locale));
  if (addedLocales.length > 0)
    phrases.push(`added ${plural(addedLocales, 'locale')} ${addedLocales.join(', ')}`);
  if (removedLocales.length > 0) {
    phrases.push(`removed ${plural(removedLocales, 'locale')} ${removedLocales.join(', ')}`);
  }
  if (
    !sameJsonValue(
      before.content.global_link_tracking_parameters ?? {},
      after.content.global_link_tracking_parameters ?? {},
    )
  ) {
    phrases.push('changed email link tracking');
  }
  return phrases;
}

/** The locales both versions have, whose value changes are edits, and how to name some of them. */
interface LocaleScope {
  kept: ReadonlySet<string>;
  describe: (changed: string[]) => string;
}

function plural(items: unknown[], word: string): string {
  return items.length === 1 ? word : `${word}s`;
}

function instanceLabel(instance: ComponentInstance, labels: ChangeLabels): string {
  return instance.name?.trim() || labels.componentLabel(instance.component_id) || 'a removed component';
}

/**
 * What changed inside one instance kept in both versions: its fields by label (two at most, else
 * a count), its conditional, where it is hidden; undefined when nothing did.
 */
function instanceEdits(
  before: ComponentInstance,
  after: ComponentInstance,
  labels: ChangeLabels,
  locales: LocaleScope,
): string[] {
  if (sameJsonValue(before, after)) return [];
  const label = instanceLabel(after, labels);
  const changed = changedFields(before, after, locales.kept);
  const parts: string[] = [];
  if (changed.variables.length > 0) {
    const fieldLabels = changed.variables.map(
      (variable) => labels.fieldLabel(after.component_id, variable)?.toLowerCase() ?? variable,
    );
    const fields = fieldLabels.length <= 2 ? fieldLabels.join(' and ') : `${fieldLabels.length} fields`;
    parts.push(`edited ${label} ${fields}${locales.describe(changed.locales)}`);
  }
  if ((before.conditional_id ?? null) !== (after.conditional_id ?? null)) {
    parts.push(`changed the audience of ${label}`);
  }
  const hiddenIn = (instance: ComponentInstance) =>
    [...locales.kept].filter((locale) => instance.hidden_from_locales?.[locale] === true);
  if (!sameJsonValue(hiddenIn(before), hiddenIn(after))) {
    parts.push(`changed the locales ${label} shows in`);
  }
  if ((before.name ?? '') !== (after.name ?? ''))
    parts.push(`renamed ${instanceLabel(before, labels)} to ${label}`);
  // Nothing here when only a translation status moved (a copy marked edited): that is bookkeeping.
  return parts;
}

/** The fields (liquid variables, first-seen order) whose value or link tracking differs, and the locales they differ in. */
function changedFields(
  before: ComponentInstance,
  after: ComponentInstance,
  keptLocales: ReadonlySet<string>,
) {
  const variables: string[] = [];
  const locales: string[] = [];
  const branches = new Set([...Object.keys(before.field_values), ...Object.keys(after.field_values)]);
  for (const branch of branches) {
    const beforeBranch = before.field_values[branch] ?? {};
    const afterBranch = after.field_values[branch] ?? {};
    for (const locale of new Set([...Object.keys(beforeBranch), ...Object.keys(afterBranch)])) {
      if (!keptLocales.has(locale)) continue;
      const beforeValues = beforeBranch[locale] ?? {};
      const afterValues = afterBranch[locale] ?? {};
      for (const variable of new Set([...Object.keys(afterValues), ...Object.keys(beforeValues)])) {
        if (sameFieldValue(beforeValues[variable], afterValues[variable])) continue;
        if (!variables.includes(variable)) variables.push(variable);
        if (!locales.includes(locale)) locales.push(locale);
      }
    }
  }
  return { variables, locales };
}

function sameFieldValue(left: FieldValue | undefined, right: FieldValue | undefined): boolean {
  return (
    (left?.value ?? null) === (right?.value ?? null) &&
    sameJsonValue(left?.link_tracking_parameters ?? {}, right?.link_tracking_parameters ?? {})
  );
}

function textChange(
  name: string,
  before: BranchedText,
  after: BranchedText,
  scope: LocaleScope,
): string | undefined {
  const locales: string[] = [];
  const branches = new Set([...Object.keys(before.branch_content), ...Object.keys(after.branch_content)]);
  for (const branch of branches) {
    const beforeBranch = before.branch_content[branch] ?? {};
    const afterBranch = after.branch_content[branch] ?? {};
    for (const locale of new Set([...Object.keys(beforeBranch), ...Object.keys(afterBranch)])) {
      const changed = scope.kept.has(locale) && (beforeBranch[locale] ?? '') !== (afterBranch[locale] ?? '');
      if (changed && !locales.includes(locale)) {
        locales.push(locale);
      }
    }
  }
  if (locales.length > 0) return `changed ${name}${scope.describe(locales)}`;
  if ((before.conditional_id ?? null) !== (after.conditional_id ?? null))
    return `changed the audience of the ${name}`;
  return undefined;
}

/**
 * The instances kept in both versions that moved: the fewest whose moving explains the new order
 * (those outside a longest run that kept its relative order), so dragging one component down
 * names that one, not every component it passed.
 */
function movedInstanceIds(before: ComponentInstance[], after: ComponentInstance[]): Set<string> {
  const afterIds = new Set(after.map((instance) => instance.id));
  const beforePosition = new Map(
    before.filter((instance) => afterIds.has(instance.id)).map((instance, index) => [instance.id, index]),
  );
  const kept = after.filter((instance) => beforePosition.has(instance.id)).map((instance) => instance.id);
  const positions = kept.map((id) => beforePosition.get(id) as number);
  const stayed = longestIncreasingRun(positions);
  return new Set(kept.filter((_, index) => !stayed.has(index)));
}

/** Indexes of one longest strictly increasing subsequence of `values` (patience sorting, O(n log n)). */
function longestIncreasingRun(values: number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array(values.length).fill(-1);
  values.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((values[tails[middle] as number] as number) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1] as number;
    tails[low] = index;
  });
  const run = new Set<number>();
  let index = tails.at(-1) ?? -1;
  while (index !== -1) {
    run.add(index);
    index = previous[index] as number;
  }
  return run;
}
