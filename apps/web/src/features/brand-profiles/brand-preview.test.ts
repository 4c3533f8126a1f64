import { definitionsFromImport, starterDesignSystem } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { brandPreviewHtml } from './brand-preview.ts';

const starter = definitionsFromImport(
  starterDesignSystem({ imagesUrl: 'https://files.example.com/starter' }),
);
const componentNamed = (name: string) => {
  const found = starter.components.find((component) => component.name === name);
  if (!found) throw new Error(`The starter has no ${name}`);
  return found;
};

function preview(brand: { design_tokens?: Record<string, unknown>; hidden?: string[] } = {}) {
  return brandPreviewHtml({
    designSystem: starter.designSystem,
    components: starter.components,
    brandProfile: {
      id: 0,
      name: 'Draft',
      design_tokens: brand.design_tokens ?? {},
      component_overrides: (brand.hidden ?? []).map((name) => ({
        component_id: componentNamed(name).id,
        hidden: true,
        field_overrides: [],
      })),
    },
  });
}

describe('brandPreviewHtml', () => {
  it('shows every component of the design system at its defaults, without problems', () => {
    const { html, problems } = preview();
    expect(problems).toEqual([]);
    expect(html).toContain(String(componentNamed('hero').field_definitions[0]?.default_value ?? ''));
    expect(html.match(/<h1 /g)?.length).toBe(1);
  });

  it('paints the buttons in the brand’s primary colour', () => {
    const { html } = preview({ design_tokens: { colors: { primary: '#d6336c' } } });
    const buttons = [...html.matchAll(/<a [^>]*style="display: inline-block; background-color: ([^;]+);/g)];
    expect(buttons.length).toBeGreaterThan(0);
    for (const [, colour] of buttons) expect(colour).toBe('#d6336c');
  });

  it('leaves out the components the brand hides', () => {
    expect(preview().html).toMatch(/<h1 /);
    expect(preview({ hidden: ['hero'] }).html).not.toMatch(/<h1 /);
  });

  it('says so when the design system has no container', () => {
    const result = brandPreviewHtml({
      designSystem: starter.designSystem,
      components: starter.components.filter((component) => !component.container),
      brandProfile: { id: 0, name: 'Draft', design_tokens: {}, component_overrides: [] },
    });
    expect(result.problems[0]?.message).toMatch(/no container/);
  });
});
