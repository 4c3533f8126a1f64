import {
  type BrandProfileDefinition,
  type ComponentDefinition,
  contentFromSimpleRender,
  type DesignSystemDefinition,
  renderHtml,
} from '@letterset/core';

const previewLocale = 'en';

/**
 * A brand's sample email: the design system's container holding one of each component the brand
 * shows, every field at its default (the brand's default where it overrides one), rendered with
 * the brand's tokens. What the brand profile dialog shows beside its form, so a change to a token
 * or an override is seen on every component that reads it.
 */
export function brandPreviewHtml({
  designSystem,
  components,
  brandProfile,
}: {
  designSystem: DesignSystemDefinition;
  components: readonly ComponentDefinition[];
  brandProfile: BrandProfileDefinition;
}): { html: string; problems: { message: string }[] } {
  const container = components.find((component) => component.container);
  if (!container) {
    return {
      html: '',
      problems: [{ message: 'The design system has no container component to preview in.' }],
    };
  }
  const hidden = new Set(
    brandProfile.component_overrides
      .filter((override) => override.hidden)
      .map((override) => override.component_id),
  );
  const shown = components.filter((component) => !component.container && !hidden.has(component.id));
  try {
    const output = renderHtml({
      designSystem,
      components: [...components],
      brandProfile,
      locale: previewLocale,
      mode: 'email_design_system_preview',
      content: contentFromSimpleRender(
        {
          container_component_instance: { component_id: container.id },
          component_instances: shown.map((component) => ({ component_id: component.id })),
        },
        previewLocale,
      ),
    });
    return { html: output.html, problems: output.diagnostics };
  } catch (error) {
    return { html: '', problems: [{ message: error instanceof Error ? error.message : String(error) }] };
  }
}
