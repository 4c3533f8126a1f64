import {
  type ComponentInstance,
  definitionsFromImport,
  type RenderInput,
  starterDesignSystem,
} from '@letterset/core';

const locale = 'en-US';

/** The starter system with a few components and values, including text that needs escaping. */
export function parityInput(overrides: Partial<RenderInput> = {}): RenderInput {
  const starter = definitionsFromImport(
    starterDesignSystem({ imagesUrl: 'https://files.example.com/starter' }),
  );
  const idOf = (name: string) => starter.components.find((component) => component.name === name)?.id ?? -1;
  const instance = (id: string, name: string, values: Record<string, string | number | boolean> = {}) =>
    ({
      id,
      name: `${name} instance`,
      component_id: idOf(name),
      field_values: {
        null_branch: {
          [locale]: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }])),
        },
      },
    }) satisfies ComponentInstance;
  return {
    designSystem: starter.designSystem,
    components: starter.components,
    brandProfile: {
      id: 2,
      name: 'Summer brand',
      design_tokens: { colors: { primary: '#e4572e' } },
      custom_styles: [{ name: 'highlight', label: 'Highlight', style: 'color: #e4572e; font-weight: bold;' }],
      component_overrides: [],
    },
    content: {
      subject: { branch_content: { null_branch: { [locale]: 'Fish & chips, <fresh> today' } } },
      preheader: { branch_content: { null_branch: { [locale]: 'Über-fresh — “quoted” 🐟' } } },
      container_component_instance: {
        id: '5b0d4f0e-0000-4000-8000-000000000000',
        component_id: starter.containerComponentId,
        field_values: { null_branch: { [locale]: { footer_address: { value: '1 Harbour Road, Whitby' } } } },
      },
      component_instances: [
        instance('5b0d4f0e-0000-4000-8000-000000000001', 'header', { show_view_online: true }),
        instance('5b0d4f0e-0000-4000-8000-000000000002', 'hero', {
          headline: 'Catch of the day: “hake” & more',
        }),
        instance('5b0d4f0e-0000-4000-8000-000000000003', 'rich_text', {
          body: '<p>Hello <strong>there</strong>, <span class="es-custom-style es-custom-style-highlight">today only</span><script>alert(1)</script> <a href="javascript:x()">bad</a> <a href="https://example.com/?a=1&amp;b=2">good</a></p><ul><li>Cod</li><li>Haddock</li></ul>',
        }),
        instance('5b0d4f0e-0000-4000-8000-000000000004', 'button', {
          text: 'Order now',
          url: 'https://example.com/order?x=1&y=2',
        }),
        instance('5b0d4f0e-0000-4000-8000-000000000005', 'image_text', { image_position: 'right' }),
        instance('5b0d4f0e-0000-4000-8000-000000000006', 'product_card', {
          name: 'Smoked salmon',
          price: '£12.50',
        }),
        instance('5b0d4f0e-0000-4000-8000-000000000007', 'divider'),
        instance('5b0d4f0e-0000-4000-8000-000000000008', 'footer'),
      ],
    },
    locale,
    mode: 'editor_preview',
    email: { id: 11, name: 'Parity' },
    project: { id: 3, name: 'Fixtures' },
    ...overrides,
  };
}
