import { describe, expect, it } from 'vitest';
import { htmlTags } from '../checks/html-tags.ts';
import { runPreSendChecks } from '../checks/pre-send-checks.ts';
import type { EmailContent } from '../content/types.ts';
import { validateEmailContent } from '../content/validate-content.ts';
import { render } from '../render/render-email.ts';
import { definitionsFromImport, starterDesignSystem, starterImageFiles } from './index.ts';
import { starterLayoutContent, starterLayoutLocale, starterLayouts } from './layouts.ts';

const imagesUrl = 'https://files.example.com/starter';
const starter = definitionsFromImport(starterDesignSystem({ imagesUrl }));
const componentIds = new Map(starter.components.map((component) => [component.name, component.id]));
const locale = starterLayoutLocale;

function contentOf(layout: ReturnType<typeof starterLayouts>[number]): EmailContent {
  let next = 0;
  return starterLayoutContent(layout, {
    containerComponentId: starter.containerComponentId,
    componentIdOf: (name) => componentIds.get(name),
    newInstanceId: () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`,
  });
}

function exportRender(content: EmailContent) {
  return render({
    designSystem: starter.designSystem,
    components: starter.components,
    brandProfile: null,
    content,
    locale,
    mode: 'export',
    strict: true,
    inlineCss: true,
    email: { id: 1, name: 'Starter layout' },
  });
}

const layouts = starterLayouts().map((layout) => [layout.name, layout] as const);

describe('Letterset Starter layouts', () => {
  it('ships the six starting points the new-email dialog offers, each named once', () => {
    expect(layouts.map(([name]) => name)).toEqual([
      'Newsletter',
      'Promotion',
      'Product launch',
      'Welcome',
      'Event invitation',
      'Receipt',
    ]);
    expect(starterLayouts()).not.toBe(starterLayouts());
  });

  it('refuses a component the design system lacks, naming it', () => {
    const [, newsletter] = layouts[0] ?? [];
    if (!newsletter) throw new Error('no layouts');
    expect(() =>
      starterLayoutContent(newsletter, {
        containerComponentId: 1,
        componentIdOf: (name) => (name === 'hero' ? undefined : 2),
        newInstanceId: () => 'id',
      }),
    ).toThrow(/"Newsletter" uses "hero"/);
  });

  it.each(layouts)('%s: every value is valid for its component', (_name, layout) => {
    const content = contentOf(layout);
    expect(content.component_instances).toHaveLength(layout.sections.length);
    for (const section of layout.sections) {
      const component = starter.components.find((candidate) => candidate.name === section.component);
      const variables = new Set(component?.field_definitions.map((field) => field.liquid_variable));
      for (const variable of Object.keys(section.values)) {
        expect(variables.has(variable), `${section.component}.${variable}`).toBe(true);
      }
    }
    expect(
      validateEmailContent({ content, components: starter.components, locales: [locale] }).validation_errors,
    ).toEqual({});
  });

  it.each(layouts)('%s: passes the pre-send checks with no problem at all', (_name, layout) => {
    const content = contentOf(layout);
    const output = exportRender(content);
    expect(output.diagnostics).toEqual([]);
    const result = runPreSendChecks({
      content,
      locales: [locale],
      defaultLocale: locale,
      components: starter.components,
      validation: validateEmailContent({ content, components: starter.components, locales: [locale] }),
      renders: [{ locale, html: output.html, diagnostics: output.diagnostics }],
    });
    expect(result.problems).toEqual([]);
    expect(result).toMatchObject({ ready: true, blocking_count: 0, warning_count: 0 });
  });

  it.each(layouts)(
    '%s: shows only the starter’s pictures, each described, and links only to full addresses',
    (_name, layout) => {
      const { html, subject, preheader } = exportRender(contentOf(layout));
      expect([subject, preheader]).toEqual([layout.subject, layout.preheader]);
      const images = htmlTags(html, ['img']);
      expect(images.length).toBeGreaterThan(0);
      for (const image of images) {
        const source = image.attributes.get('src') ?? '';
        expect(source.startsWith(`${imagesUrl}/`), source).toBe(true);
        expect(starterImageFiles).toContain(source.slice(imagesUrl.length + 1));
        expect((image.attributes.get('alt') ?? '').trim(), source).not.toBe('');
      }
      for (const link of htmlTags(html, ['a'])) {
        expect(link.attributes.get('href') ?? '').toMatch(/^https:\/\/[a-z.]+\.com\//);
      }
      // No leftover default copy of the starter's components.
      for (const placeholder of [
        'A headline that earns the open',
        'Section heading',
        'Write your message here',
        'Product name',
      ]) {
        expect(html).not.toContain(placeholder);
      }
    },
  );
});
