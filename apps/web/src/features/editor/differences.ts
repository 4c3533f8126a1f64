import type { ComponentInstance, EditorDocument } from '@letterset/core';

/**
 * What differs between the user's document and the one someone else saved, in sentences a user
 * can act on: which components were added, removed, moved or changed, and subject or locale changes.
 */
export function describeDifferences(
  mine: EditorDocument,
  theirs: EditorDocument,
  labelOf: (instance: ComponentInstance) => string,
): string[] {
  const lines: string[] = [];
  const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);
  if (!same(mine.content.subject, theirs.content.subject)) lines.push('The subject differs.');
  if (!same(mine.content.preheader, theirs.content.preheader)) lines.push('The preheader differs.');
  if (!same(mine.locales, theirs.locales) || mine.defaultLocale !== theirs.defaultLocale) {
    lines.push(`Locales: yours ${mine.locales.join(', ')}; theirs ${theirs.locales.join(', ')}.`);
  }
  if (!same(mine.content.container_component_instance, theirs.content.container_component_instance)) {
    lines.push(`${labelOf(theirs.content.container_component_instance)} (email-wide fields) differs.`);
  }
  const mineById = new Map(mine.content.component_instances.map((instance) => [instance.id, instance]));
  const theirsById = new Map(theirs.content.component_instances.map((instance) => [instance.id, instance]));
  for (const instance of theirs.content.component_instances) {
    const own = mineById.get(instance.id);
    if (!own) lines.push(`They added ${labelOf(instance)}.`);
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
