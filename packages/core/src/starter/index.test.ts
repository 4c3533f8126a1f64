import { describe, expect, it } from 'vitest';
import type { ComponentInstance, EmailContent } from '../content/types.ts';
import { validateFieldDefinitions } from '../fields/index.ts';
import { checkTemplate } from '../render/check-template.ts';
import type { BrandProfileDefinition } from '../render/design-system.ts';
import { render } from '../render/render-email.ts';
import { definitionsFromImport, starterDesignSystem, starterImageFiles } from './index.ts';

const imagesUrl = 'https://files.example.com/starter';
const imported = starterDesignSystem({ imagesUrl });
const starter = definitionsFromImport(imported);
const customStyleNames = imported.email_design_system.custom_styles.map((style) => style.name);
const locale = 'en-US';

function emailWith(instances: ComponentInstance[]): EmailContent {
  return {
    subject: { branch_content: { null_branch: { [locale]: 'Spring is here' } } },
    preheader: { branch_content: { null_branch: { [locale]: 'Ten new things for warmer days' } } },
    container_component_instance: {
      id: 'container',
      component_id: starter.containerComponentId,
      field_values: {},
    },
    component_instances: instances,
  };
}

function renderStarter(
  instances: ComponentInstance[],
  options: { bare?: boolean; brandProfile?: BrandProfileDefinition } = {},
) {
  const components = options.bare
    ? starter.components.map((component) =>
        component.container ? { ...component, template: '{{children}}' } : component,
      )
    : starter.components;
  return render({
    designSystem: starter.designSystem,
    components,
    brandProfile: options.brandProfile ?? null,
    content: emailWith(instances),
    locale,
    mode: 'export',
    email: { id: 1, name: 'Starter test' },
  });
}

describe('Letterset Starter', () => {
  it('is in the import format, with a container and the documented components', () => {
    expect(imported.email_design_system.name).toBe('Letterset Starter');
    expect(imported.email_design_system.components.map((component) => component.name)).toEqual([
      'header',
      'hero',
      'heading',
      'rich_text',
      'button',
      'image',
      'image_text',
      'product_card',
      'divider',
      'spacer',
      'social_links',
      'footer',
    ]);
    expect(starterDesignSystem({ imagesUrl })).not.toBe(starterDesignSystem({ imagesUrl }));
  });

  it('points its pictures at the folder it is given, and at no other host', () => {
    const json = JSON.stringify(starterDesignSystem({ imagesUrl: 'https://cdn.example.org/starter/' }));
    const urls = [...json.matchAll(/https?:\/\/[^"'\\ ]+/g)].map(([url]) => url);
    const pictures = urls.filter(
      (url) =>
        /\.(png|jpe?g|gif)$/.test(url) || url.endsWith('social-light-') || url.endsWith('social-dark-'),
    );
    expect(pictures.length).toBeGreaterThan(0);
    for (const url of pictures) expect(url.startsWith('https://cdn.example.org/starter/')).toBe(true);
    expect(json).not.toContain('placehold');
    expect(json).not.toContain('{starter_images}');
    // Every file the templates and defaults name is one Letterset ships.
    const named = new Set([...json.matchAll(/starter\/([a-z-]+\.png)/g)].map(([, file]) => file));
    for (const network of ['f', 'ig', 'x', 'in']) {
      named.add(`social-light-${network}.png`);
      named.add(`social-dark-${network}.png`);
    }
    expect([...named].sort()).toEqual([...starterImageFiles].sort());
  });

  it.each(starter.components.map((component) => [component.name, component] as const))(
    '%s: field definitions are valid and the template parses',
    (_name, component) => {
      expect(validateFieldDefinitions(component.field_definitions, { customStyleNames })).toEqual({});
      expect(checkTemplate(component.template, { container: component.container })).toEqual([]);
    },
  );

  it('marks every editable element with data-es-field-focus', () => {
    for (const component of starter.components.filter((candidate) => !candidate.container)) {
      expect(component.template, component.name).toContain('data-es-field-focus="');
    }
  });

  it.each(
    starter.components
      .filter((component) => !component.container)
      .map((component) => [component.name, component.id] as const),
  )('%s renders with its defaults', (_name, componentId) => {
    const output = renderStarter([{ id: 'instance', component_id: componentId, field_values: {} }], {
      bare: true,
    });
    expect(output.diagnostics).toEqual([]);
    expect(output.html).toMatchSnapshot();
  });

  it('renders a whole email: document, preheader, dark mode, Outlook button', () => {
    const output = renderStarter(
      starter.components
        .filter((component) => !component.container)
        .map((component) => ({ id: `i-${component.name}`, component_id: component.id, field_values: {} })),
    );
    expect(output.diagnostics).toEqual([]);
    expect(output.html).toMatch(/^<!DOCTYPE html>\n<html lang="en-US" dir="ltr"/);
    expect(output.html).toContain('<title>Spring is here</title>');
    expect(output.html).toContain('Ten new things for warmer days&#8199;');
    expect(output.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(output.html).toContain('@media (prefers-color-scheme: dark)');
    expect(output.html).toContain('<v:roundrect');
    expect(output.html).toMatchSnapshot();
    expect(output.plainText).toMatchSnapshot();
  });

  it('paints buttons and links in the brand profile’s primary colour', () => {
    const starterPrimary = '#2f5bea';
    expect(imported.email_design_system.design_tokens).toMatchObject({ colors: { primary: starterPrimary } });
    const brandPrimary = '#d6336c';
    const output = renderStarter(
      starter.components
        .filter((component) => !component.container)
        .map((component) => ({ id: `i-${component.name}`, component_id: component.id, field_values: {} })),
      {
        brandProfile: {
          id: 7,
          name: 'Berry',
          design_tokens: { colors: { primary: brandPrimary } },
          component_overrides: [],
        },
      },
    );
    expect(output.diagnostics).toEqual([]);
    const buttonBackgrounds = [
      ...output.html.matchAll(/<a [^>]*style="display: inline-block; background-color: ([^;]+);/g),
    ].map(([, colour]) => colour);
    const outlookFills = [...output.html.matchAll(/<v:roundrect [^>]*fillcolor="([^"]+)"/g)].map(
      ([, colour]) => colour,
    );
    // The hero's, the button's and the product card's.
    expect(buttonBackgrounds).toEqual([brandPrimary, brandPrimary, brandPrimary]);
    expect(outlookFills).toEqual([brandPrimary, brandPrimary, brandPrimary]);
    expect(output.html).toContain(`a { color: ${brandPrimary}; }`);
    expect(output.html.toLowerCase()).not.toContain(starterPrimary);
  });

  it('uses the email’s text direction', () => {
    const output = render({
      designSystem: starter.designSystem,
      components: starter.components,
      brandProfile: null,
      content: emailWith([]),
      locale: 'ar-SA',
      mode: 'export',
      email: { id: 1, name: 'RTL', textDirection: 'rtl' },
    });
    expect(output.html).toContain('<html lang="ar-SA" dir="rtl"');
  });

  it('renders plain text through the templates’ plaintext branches', () => {
    const button = starter.components.find((component) => component.name === 'button');
    const output = render({
      designSystem: starter.designSystem,
      components: starter.components,
      brandProfile: null,
      content: emailWith([
        {
          id: 'b',
          component_id: button?.id ?? 0,
          field_values: { null_branch: { [locale]: { url: { value: 'https://letterset.dev/?a=1&b=2' } } } },
        },
      ]),
      locale,
      mode: 'export',
      outputFormat: 'plaintext',
    });
    expect(output.html).toBe('Ten new things for warmer days\n\nShop now: https://letterset.dev/?a=1&b=2\n');
    expect(output.plainText).toBe(
      'Ten new things for warmer days\n\nShop now: https://letterset.dev/?a=1&b=2',
    );
  });
});
