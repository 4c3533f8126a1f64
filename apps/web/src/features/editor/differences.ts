import { type ComponentInstance, type EditorDocument, sameJsonValue as same } from '@letterset/core';

/** Whose the other version is: someone else's save, or the saved version a kept draft differs from. */
export type OtherVersion = 'theirs' | 'saved';

const wording: Record<OtherVersion, { name: string; added: (label: string) => string }> = {
  theirs: { name: 'theirs', added: (label) => `They added ${label}.` },
  saved: { name: 'saved', added: (label) => `${label} is only in the saved version.` },
};

/**
 * What differs between the user's document and another version (one someone else saved, or the
 * saved one), in sentences a user can act on: which components were added, removed, moved or
 * changed, and changes to the subject, preheader, locales and email-wide link tracking parameters.
 */
export function describeDifferences(
  mine: EditorDocument,
  theirs: EditorDocument,
  labelOf: (instance: ComponentInstance) => string,
  other: OtherVersion = 'theirs',
): string[] {
  const lines: string[] = [];
  const { name, added } = wording[other];
  if (!same(mine.content.subject, theirs.content.subject)) lines.push('The subject differs.');
  if (!same(mine.content.preheader, theirs.content.preheader)) lines.push('The preheader differs.');
  if (!same(mine.locales, theirs.locales) || mine.defaultLocale !== theirs.defaultLocale) {
    lines.push(`Locales: yours ${mine.locales.join(', ')}; ${name} ${theirs.locales.join(', ')}.`);
  }
  const mineTracking = mine.content.global_link_tracking_parameters ?? {};
  const theirTracking = theirs.content.global_link_tracking_parameters ?? {};
  const trackingChanges = [...new Set([...Object.keys(mineTracking), ...Object.keys(theirTracking)])]
    .sort()
    .filter((parameter) => mineTracking[parameter] !== theirTracking[parameter])
    .map(
      (parameter) =>
        `${parameter} (${describeValue(mineTracking[parameter])} → ${describeValue(theirTracking[parameter])})`,
    );
  if (trackingChanges.length > 0) {
    lines.push(`Email link tracking differs, yours → ${name}: ${trackingChanges.join(', ')}.`);
  }
  if (!same(mine.content.container_component_instance, theirs.content.container_component_instance)) {
    lines.push(`${labelOf(theirs.content.container_component_instance)} (email-wide fields) differs.`);
  }
  const mineById = new Map(mine.content.component_instances.map((instance) => [instance.id, instance]));
  const theirsById = new Map(theirs.content.component_instances.map((instance) => [instance.id, instance]));
  for (const instance of theirs.content.component_instances) {
    const own = mineById.get(instance.id);
    if (!own) lines.push(added(labelOf(instance)));
    else if (!same(own, instance)) lines.push(`${labelOf(instance)} differs.`);
  }
  for (const instance of mine.content.component_instances) {
    if (!theirsById.has(instance.id)) lines.push(`${labelOf(instance)} is only in your version.`);
  }
  const sharedOrder = (document: EditorDocument, other: Map<string, unknown>) =>
    document.content.component_instances
      .filter((instance) => other.has(instance.id))
      .map((instance) => instance.id);
  if (!same(sharedOrder(mine, theirsById), sharedOrder(theirs, mineById)))
    lines.push('The order of components differs.');
  return lines;
}

function describeValue(value: string | undefined): string {
  return value === undefined ? 'not set' : `“${value}”`;
}
