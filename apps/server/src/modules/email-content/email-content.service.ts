interface InstanceReferences {
  container_component_instance: { component_id: number };
  component_instances: { component_id: number }[];
}

/**
 * Problems with the components a content's instances name, keyed under `root`: the container
 * instance must use the system's container, the others its other components.
 */
export function instanceReferenceProblems(
  systemComponents: readonly { id: number; container: boolean }[],
  content: InstanceReferences,
  root: string,
): Record<string, string[]> {
  const isContainer = new Map(systemComponents.map((component) => [component.id, component.container]));
  const errors: Record<string, string[]> = {};
  if (isContainer.get(content.container_component_instance.component_id) !== true) {
    errors[`${root}.container_component_instance.component_id`] = [
      'must be the container component of the design system',
    ];
  }
  content.component_instances.forEach((instance, index) => {
    if (isContainer.get(instance.component_id) !== false) {
      errors[`${root}.component_instances.${index}.component_id`] = [
        'is not a component of the design system',
      ];
    }
  });
  return errors;
}
