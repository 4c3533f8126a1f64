import {
  type ComponentDefinition,
  type DesignSystemDefinition,
  type FieldDefinition,
  nullBranch,
  renderHtml,
} from '@letterset/core';
import { useDeferredValue, useMemo } from 'react';
import { HtmlPreview } from '../../shared/HtmlPreview.tsx';

// Previewing a component without a container of its own: this one only prints the component.
const bareContainer: ComponentDefinition = {
  id: -1,
  name: 'preview_container',
  label: 'Preview container',
  container: true,
  template: '{{children}}',
  field_definitions: [],
};

const locale = 'en';

function instance(id: string, componentId: number) {
  // No stored values: every field shows its default, as a freshly added component does.
  return {
    id,
    component_id: componentId,
    conditional_id: null,
    field_values: { [nullBranch]: { [locale]: {} } },
  };
}

/** HTML of the component being edited with its field defaults, inside the system's container. */
export function previewHtml({
  designSystem,
  component,
  container,
}: {
  designSystem: DesignSystemDefinition;
  component: ComponentDefinition;
  container: ComponentDefinition | null;
}) {
  const wrapper = component.container ? component : (container ?? bareContainer);
  const children = component.container ? [] : [component];
  const emptyText = { conditional_id: null, branch_content: { [nullBranch]: { [locale]: '' } } };
  return renderHtml({
    designSystem,
    components: [wrapper, ...children],
    brandProfile: null,
    locale,
    mode: 'email_design_system_preview',
    content: {
      subject: emptyText,
      preheader: emptyText,
      container_component_instance: instance('preview-container', wrapper.id),
      component_instances: children.map((child) => instance('preview-component', child.id)),
    },
  });
}

/** The live preview: rendered in the browser by `core`, shown in a sandboxed iframe at desktop or mobile width. */
export function ComponentPreview({
  designSystem,
  component,
  container,
}: {
  designSystem: DesignSystemDefinition;
  component: Omit<ComponentDefinition, 'field_definitions'> & { field_definitions: FieldDefinition[] };
  container: ComponentDefinition | null;
}) {
  // Typing stays responsive on large templates: the preview follows a step behind.
  const deferred = useDeferredValue(component);
  const output = useMemo(() => {
    try {
      return previewHtml({ designSystem, component: deferred, container });
    } catch (error) {
      return { html: '', diagnostics: [{ message: error instanceof Error ? error.message : String(error) }] };
    }
  }, [designSystem, deferred, container]);

  return <HtmlPreview title="Component preview" html={output.html} problems={output.diagnostics} />;
}
