import type { EditorDocument } from '@letterset/core';

/** What a layout keeps of an email: its container and components, without subject or preheader. */
export interface LayoutContent {
  container_component_instance: EditorDocument['content']['container_component_instance'];
  component_instances: EditorDocument['content']['component_instances'];
}

/**
 * An email's body as a layout: the same components in the same order, with their values, or with
 * every field back at its default (`keepValues: false`) so the layout holds only the arrangement.
 */
export function layoutContentFrom(
  document: EditorDocument,
  { keepValues }: { keepValues: boolean },
): LayoutContent {
  const { container_component_instance, component_instances } = document.content;
  if (keepValues) return { container_component_instance, component_instances };
  const withDefaults = <Instance extends { field_values: unknown }>(instance: Instance): Instance => ({
    ...instance,
    field_values: {},
  });
  return {
    container_component_instance: withDefaults(container_component_instance),
    component_instances: component_instances.map(withDefaults),
  };
}
