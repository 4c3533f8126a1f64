import { type EditorDocument, sameDocument, sameJsonValue } from './document.ts';

/**
 * The outcome of a three-way merge: one document holding both sides' changes, or the places where
 * the two sides changed the same thing differently (paths such as
 * `content.component_instances.<id>.field_values.null_branch.en-US.headline.value`).
 */
export type MergeResult = { merged: EditorDocument } | { conflict: string[] };

/**
 * Merges two documents that both started from `base`: `mine` (the editor's) and `theirs` (what
 * someone else, a person or a background job, saved meanwhile). Pure, and symmetric in `mine` and
 * `theirs` whenever it merges.
 *
 * The unit of change is one leaf: one subject or preheader text of a branch and locale, one field
 * value (`value`) of an instance, branch, locale and variable, one link tracking parameter, one
 * `hidden_from_locales` entry, an instance's name. A leaf changed on one side takes that side's
 * value; changed identically on both is fine; changed differently on both is a conflict, and so is
 * a record (a locale's values, a field value) removed on one side and changed on the other.
 * - `locales` is a set: additions and removals of both sides are kept, but removing a locale the
 *   other side wrote into is a conflict.
 * - Structure is taken whole from the side that changed it, and is a conflict when both changed it
 *   differently: the order and membership of the body's instances, each instance's component and
 *   conditional (and any other property that is not a value, name or hidden flag), the container
 *   (when replaced), the subject's and preheader's conditionals, the default locale, and any other
 *   document or content property. An instance (or text) whose component or conditional changed on
 *   one side and whose values changed on the other is a conflict, since its values were re-keyed.
 * Every object is walked over the union of the three sides' keys, so a property this function does
 * not know about is still merged, as a unit.
 */
export function mergeDocuments(
  base: EditorDocument,
  mine: EditorDocument,
  theirs: EditorDocument,
): MergeResult {
  if (sameDocument(mine, theirs) || sameDocument(base, theirs)) return { merged: mine };
  if (sameDocument(base, mine)) return { merged: theirs };
  const context: MergeContext = { conflicts: [] };
  const merged = mergeDocument(context, '', base, mine, theirs) as EditorDocument | undefined;
  if (context.conflicts.length === 0) checkLocales(context, base, mine, theirs, merged);
  if (context.conflicts.length > 0 || merged === undefined) return { conflict: context.conflicts };
  return { merged };
}

interface MergeContext {
  conflicts: string[];
}

/** Merges one part of the three documents; `undefined` is an absent property. */
type Merge = (context: MergeContext, path: string, base: unknown, mine: unknown, theirs: unknown) => unknown;

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function conflict(context: MergeContext, path: string, why?: string): undefined {
  context.conflicts.push(why === undefined ? path : `${path}: ${why}`);
  return undefined;
}

/** Mine's keys first (so the result keeps the editor's key order), then theirs', then base's. */
function keysOf(...records: JsonRecord[]): string[] {
  const keys = new Set<string>();
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) if (value !== undefined) keys.add(key);
  }
  return [...keys];
}

/** The answer when at most one side changed this part; `undecided` when both did, differently. */
const undecided = Symbol('undecided');

function oneSided(base: unknown, mine: unknown, theirs: unknown): unknown {
  if (sameJsonValue(mine, theirs)) return mine;
  if (sameJsonValue(base, mine)) return theirs;
  if (sameJsonValue(base, theirs)) return mine;
  return undecided;
}

/** A part merged whole: one side's change is taken, two different changes conflict. */
const unit: Merge = (context, path, base, mine, theirs) => {
  const decided = oneSided(base, mine, theirs);
  return decided === undecided ? conflict(context, path) : decided;
};

/**
 * A record merged key by key with `child(key)`, when both sides changed it. A record removed on
 * one side and changed on the other conflicts, unless `absentIsEmpty` (records the commands drop
 * once empty, such as link tracking parameters), where an absent record is an empty one.
 */
function records(child: (key: string) => Merge, options: { absentIsEmpty?: boolean } = {}): Merge {
  return (context, path, base, mine, theirs) => {
    const decided = oneSided(base, mine, theirs);
    if (decided !== undecided) return decided;
    const orEmpty = (value: unknown) => (value === undefined && options.absentIsEmpty ? {} : value);
    const [baseRecord, mineRecord, theirsRecord] = [orEmpty(base), orEmpty(mine), orEmpty(theirs)];
    if (!isRecord(mineRecord) || !isRecord(theirsRecord)) {
      return conflict(context, path, 'removed or replaced on one side, changed on the other');
    }
    if (baseRecord !== undefined && !isRecord(baseRecord)) return conflict(context, path);
    const baseEntries = baseRecord ?? {};
    const result: JsonRecord = {};
    for (const key of keysOf(mineRecord, theirsRecord, baseEntries)) {
      const value = child(key)(
        context,
        join(path, key),
        baseEntries[key],
        mineRecord[key],
        theirsRecord[key],
      );
      if (value !== undefined) result[key] = value;
    }
    // An emptied record is dropped as the side that dropped it would have.
    if (Object.keys(result).length === 0 && (mine === undefined || theirs === undefined)) return undefined;
    return result;
  };
}

const everyKey =
  (merge: Merge) =>
  (_key: string): Merge =>
    merge;

/** A flat record of leaves that the commands drop once empty: hidden_from_locales, link tracking parameters. */
const optionalLeafRecord = records(everyKey(unit), { absentIsEmpty: true });

const fieldValue = records((key) => (key === 'link_tracking_parameters' ? optionalLeafRecord : unit));

/** branch → locale → liquid variable → field value. */
const fieldValues = records(everyKey(records(everyKey(records(everyKey(fieldValue))))));

/** branch → locale → text. */
const branchContent = records(everyKey(records(everyKey(unit))));

/** Properties of an instance that are its values rather than its structure. */
const instanceValueKeys: Record<string, Merge> = {
  field_values: fieldValues,
  hidden_from_locales: optionalLeafRecord,
  name: unit,
};

/**
 * An object whose `valuesKey` holds values keyed by its structure (branches of its conditional):
 * structure changed on one side and values on the other conflict, since the values were re-keyed.
 */
function withStructure(valueMerges: Record<string, Merge>, valuesKey: string): Merge {
  const mergeAll = records((key) => valueMerges[key] ?? unit);
  return (context, path, base, mine, theirs) => {
    if (!isRecord(base) || !isRecord(mine) || !isRecord(theirs))
      return unit(context, path, base, mine, theirs);
    const structureOf = (record: JsonRecord) =>
      Object.fromEntries(Object.entries(record).filter(([key]) => !(key in valueMerges)));
    const structureChanged = (side: JsonRecord) => !sameJsonValue(structureOf(base), structureOf(side));
    const valuesChanged = (side: JsonRecord) => !sameJsonValue(base[valuesKey], side[valuesKey]);
    const [mineStructure, theirsStructure] = [structureChanged(mine), structureChanged(theirs)];
    if (mineStructure !== theirsStructure && (mineStructure ? valuesChanged(theirs) : valuesChanged(mine))) {
      return conflict(
        context,
        path,
        'its component or conditional changed on one side, its values on the other',
      );
    }
    return mergeAll(context, path, base, mine, theirs);
  };
}

const instance = withStructure(instanceValueKeys, 'field_values');

/** branch → locale → translation status; optional, and its levels are dropped once empty. */
const branchStatuses = records(everyKey(records(everyKey(unit), { absentIsEmpty: true })), {
  absentIsEmpty: true,
});

const branchedText = withStructure(
  { branch_content: branchContent, translation_status: branchStatuses },
  'branch_content',
);

/** The container merges as an instance while it stays the same one; replacing it is structure. */
const container: Merge = (context, path, base, mine, theirs) => {
  const idOf = (value: unknown) => (isRecord(value) ? value.id : undefined);
  const sameInstance = idOf(base) !== undefined && idOf(base) === idOf(mine) && idOf(base) === idOf(theirs);
  return (sameInstance ? instance : unit)(context, path, base, mine, theirs);
};

type InstanceList = (JsonRecord & { id: string })[];

function isInstanceList(value: unknown): value is InstanceList {
  if (!Array.isArray(value)) return false;
  const ids = value.map((item) => (isRecord(item) ? item.id : undefined));
  return ids.every((id) => typeof id === 'string') && new Set(ids).size === ids.length;
}

/**
 * The body: its order and membership are one unit of structure; each instance present on every
 * side then merges on its own. An instance dropped by the merge must be unchanged by the side that
 * kept it.
 */
const instanceList: Merge = (context, path, base, mine, theirs) => {
  if (!isInstanceList(base) || !isInstanceList(mine) || !isInstanceList(theirs)) {
    return unit(context, path, base, mine, theirs);
  }
  const idsOf = (list: InstanceList) => list.map((item) => item.id);
  const order = unit(context, `${path} (order)`, idsOf(base), idsOf(mine), idsOf(theirs)) as
    | string[]
    | undefined;
  if (order === undefined) return undefined;
  const byId = (list: InstanceList) => new Map(list.map((item) => [item.id, item]));
  const [baseById, mineById, theirsById] = [byId(base), byId(mine), byId(theirs)];
  const result: JsonRecord[] = [];
  for (const id of order) {
    const [inBase, inMine, inTheirs] = [baseById.get(id), mineById.get(id), theirsById.get(id)];
    if (inBase && inMine && inTheirs) {
      const merged = instance(context, join(path, id), inBase, inMine, inTheirs);
      if (isRecord(merged)) result.push(merged);
      continue;
    }
    // Added on one side (or identically on both); the order unit keeps an instance only where it is.
    const decided = oneSided(inBase, inMine, inTheirs);
    if (isRecord(decided)) result.push(decided);
    else conflict(context, join(path, id), 'added differently on both sides');
  }
  const kept = new Set(order);
  for (const id of new Set([...baseById.keys(), ...mineById.keys(), ...theirsById.keys()])) {
    if (kept.has(id)) continue;
    if (oneSided(baseById.get(id), mineById.get(id), theirsById.get(id)) !== undefined) {
      conflict(context, join(path, id), 'removed on one side, changed on the other');
    }
  }
  return result;
};

const contentParts: Record<string, Merge> = {
  subject: branchedText,
  preheader: branchedText,
  container_component_instance: container,
  component_instances: instanceList,
  global_link_tracking_parameters: records(everyKey(unit), { absentIsEmpty: true }),
};

function isLocaleList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((locale) => typeof locale === 'string');
}

/**
 * Locales as a set: kept where neither side removed them, plus what either side added. When both
 * changed the list, base's order comes first and additions follow in code order, so the result does
 * not depend on which side is "mine".
 */
const localeList: Merge = (context, path, base, mine, theirs) => {
  const decided = oneSided(base, mine, theirs);
  if (decided !== undecided) return decided;
  if (!isLocaleList(base) || !isLocaleList(mine) || !isLocaleList(theirs)) return conflict(context, path);
  const kept = base.filter((locale) => mine.includes(locale) && theirs.includes(locale));
  const added = [...new Set([...mine, ...theirs])].filter((locale) => !base.includes(locale)).sort();
  return [...kept, ...added];
};

const mergeDocument = records(
  (key) =>
    ({
      content: records((part) => contentParts[part] ?? unit),
      locales: localeList,
    })[key] ?? unit,
);

/**
 * What a document holds in one locale, leaf by leaf: subject and preheader texts, each instance's
 * values and its hidden flag.
 */
function localeLeaves(document: EditorDocument, locale: string): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  const { content } = document;
  for (const part of ['subject', 'preheader'] as const) {
    for (const [branch, byLocale] of Object.entries(content[part]?.branch_content ?? {})) {
      if (byLocale?.[locale] !== undefined) leaves.set(JSON.stringify([part, branch]), byLocale[locale]);
    }
  }
  for (const item of [content.container_component_instance, ...(content.component_instances ?? [])]) {
    if (!item) continue;
    for (const [branch, byLocale] of Object.entries(item.field_values ?? {})) {
      for (const [variable, value] of Object.entries(byLocale?.[locale] ?? {})) {
        leaves.set(JSON.stringify(['value', item.id, branch, variable]), value);
      }
    }
    const hidden = item.hidden_from_locales?.[locale];
    if (hidden !== undefined) leaves.set(JSON.stringify(['hidden', item.id]), hidden);
  }
  return leaves;
}

/** Whether `side` added or changed anything in `locale` since `base` (removals agree with a removed locale). */
function wroteInto(base: EditorDocument, side: EditorDocument, locale: string): boolean {
  const before = localeLeaves(base, locale);
  for (const [key, value] of localeLeaves(side, locale)) {
    if (!sameJsonValue(before.get(key), value)) return true;
  }
  return false;
}

/** A locale one side removed must be one the other side did not write into; the default must remain a locale. */
function checkLocales(
  context: MergeContext,
  base: EditorDocument,
  mine: EditorDocument,
  theirs: EditorDocument,
  merged: EditorDocument | undefined,
): void {
  if (!isLocaleList(base.locales) || !isLocaleList(mine.locales) || !isLocaleList(theirs.locales)) return;
  for (const locale of base.locales) {
    const [removedByMine, removedByTheirs] = [
      !mine.locales.includes(locale),
      !theirs.locales.includes(locale),
    ];
    if (removedByMine === removedByTheirs) continue;
    if (wroteInto(base, removedByMine ? theirs : mine, locale)) {
      conflict(context, join('locales', locale), 'removed on one side, written into on the other');
    }
  }
  if (merged && base.locales.includes(base.defaultLocale) && !merged.locales.includes(merged.defaultLocale)) {
    conflict(context, 'defaultLocale', `${merged.defaultLocale} is no longer one of the locales`);
  }
}
