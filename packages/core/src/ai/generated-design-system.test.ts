import { describe, expect, it } from 'vitest';
import { validateFieldDefinitions } from '../fields/index.ts';
import { checkTemplate } from '../render/check-template.ts';
import type { JsonSchema } from './generated-content.ts';
import {
  designSystemGenerationSchema,
  type GeneratedComponent,
  minimalContainer,
  readGeneratedDesignSystem,
  renderProblemsWithDefaults,
  storedFieldDefinition,
  unsafeMarkupProblems,
} from './generated-design-system.ts';

/** Every object schema inside `schema`, wherever it is nested. */
function objectSchemas(schema: unknown): JsonSchema[] {
  if (Array.isArray(schema)) return schema.flatMap(objectSchemas);
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as JsonSchema;
  const own = node.type === 'object' ? [node] : [];
  return [...own, ...Object.values(node).flatMap(objectSchemas)];
}

const modelField = (extra: Record<string, unknown> = {}) => ({
  type: 'text',
  label: 'Headline',
  liquid_variable: 'headline',
  default_value: 'Hello',
  hint: null,
  group: null,
  options: null,
  validations: null,
  ...extra,
});

describe('designSystemGenerationSchema', () => {
  it('is strict-mode friendly: every object requires all its properties and allows no others', () => {
    const objects = objectSchemas(designSystemGenerationSchema());
    expect(objects.length).toBeGreaterThan(4);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect([...(object.required as string[])].sort()).toEqual(
        Object.keys(object.properties as object).sort(),
      );
    }
  });

  it('offers every field type', () => {
    const text = JSON.stringify(designSystemGenerationSchema());
    for (const type of ['text', 'rich_text', 'enum', 'horizontal_align', 'vertical_align', 'code', 'image']) {
      expect(text).toContain(`"${type}"`);
    }
  });
});

describe('storedFieldDefinition', () => {
  it('leaves out null optional keys and keeps the ones given', () => {
    expect(storedFieldDefinition(modelField())).toEqual({
      type: 'text',
      label: 'Headline',
      liquid_variable: 'headline',
      default_value: 'Hello',
    });
    expect(storedFieldDefinition(modelField({ hint: ' Short ', group: 'Text' }))).toMatchObject({
      hint: 'Short',
      group: 'Text',
    });
  });

  it('keeps enum options as objects and alignment options as strings', () => {
    const options = [
      { label: 'Left', value: 'left' },
      { label: 'Center', value: 'center' },
    ];
    expect(
      storedFieldDefinition(modelField({ type: 'enum', default_value: 'left', options })).options,
    ).toEqual(options);
    expect(
      storedFieldDefinition(modelField({ type: 'horizontal_align', default_value: 'left', options })).options,
    ).toEqual(['left', 'center']);
    expect(storedFieldDefinition(modelField({ options }))).not.toHaveProperty('options');
  });

  it('keeps the validations of the field’s type, in its own words', () => {
    const validations = { max_length: 80, must_not_be_blank: true, min: null, max: 3 };
    expect(storedFieldDefinition(modelField({ validations })).validations).toEqual({
      max_length: 80,
      must_not_be_blank: true,
    });
    expect(
      storedFieldDefinition(modelField({ type: 'rich_text', default_value: '<p>x</p>', validations }))
        .validations,
    ).toEqual({ max_content_length: 80, must_not_be_blank: true });
    expect(
      storedFieldDefinition(modelField({ type: 'number', default_value: 1, validations })).validations,
    ).toEqual({
      max: 3,
    });
    expect(
      storedFieldDefinition(
        modelField({ validations: { max_length: null, must_not_be_blank: null, min: null, max: null } }),
      ),
    ).not.toHaveProperty('validations');
  });

  it('passes what it cannot read to the field checks unchanged', () => {
    expect(storedFieldDefinition('headline')).toBe('headline');
    const converted = storedFieldDefinition(modelField({ type: 'enum', options: null }));
    expect(validateFieldDefinitions([converted], { customStyleNames: [] })).toHaveProperty('0.options');
  });
});

describe('readGeneratedDesignSystem', () => {
  const component = {
    name: 'hero',
    label: 'Hero',
    description: 'A hero',
    template: '<tr></tr>',
    field_definitions: [],
  };

  it('reads components and builds nested design tokens', () => {
    const read = readGeneratedDesignSystem({
      design_tokens: [
        { path: 'colors.primary', value: '#112233' },
        { path: 'colors.text', value: '#000000' },
        { path: 'spacing', value: '24' },
      ],
      container: { ...component, name: 'container' },
      components: [component],
    });
    expect(read.problems).toEqual([]);
    expect(read.designTokens).toEqual({ colors: { primary: '#112233', text: '#000000' }, spacing: '24' });
    expect(read.container?.name).toBe('container');
    expect(read.components).toEqual([{ ...component, description: 'A hero' }]);
  });

  it('reports token entries it cannot place, and leaves them out', () => {
    const read = readGeneratedDesignSystem({
      design_tokens: [
        { path: 'colors', value: 'red' },
        { path: 'colors.primary', value: '#112233' },
        { path: 'colors', value: 'blue' },
        { path: '1st', value: 'x' },
      ],
      container: component,
      components: [],
    });
    expect(read.designTokens).toEqual({ colors: 'red' });
    expect(read.problems.map((problem) => problem.path)).toEqual([
      'design_tokens.1.path',
      'design_tokens.2.path',
      'design_tokens.3.path',
    ]);
  });

  it('says what is missing from an answer of another shape', () => {
    expect(readGeneratedDesignSystem('nope').problems).toEqual([
      { path: '', message: 'must be a JSON object with design_tokens, container and components' },
    ]);
    expect(readGeneratedDesignSystem({ components: 'x', design_tokens: null }).problems).toEqual([
      { path: 'container', message: 'is required: a component object' },
      { path: 'components', message: 'must be a list of components' },
    ]);
    expect(
      readGeneratedDesignSystem({ container: component, components: [3], design_tokens: null }).problems,
    ).toEqual([{ path: 'components.0', message: 'must be a component object' }]);
  });
});

describe('minimalContainer', () => {
  it('is a valid container that renders', () => {
    const container = minimalContainer();
    expect(checkTemplate(container.template, { container: true })).toEqual([]);
    expect(validateFieldDefinitions(container.field_definitions, { customStyleNames: [] })).toEqual({});
    expect(
      renderProblemsWithDefaults({ container, components: [], designTokens: {}, customStyles: [] }).container,
    ).toEqual([]);
    expect(minimalContainer('email_container').name).toBe('email_container');
  });
});

describe('renderProblemsWithDefaults', () => {
  const component = (name: string, template: string): GeneratedComponent => ({
    name,
    label: name,
    description: null,
    template,
    field_definitions: [{ type: 'text', label: 'Title', liquid_variable: 'title', default_value: 'Hi' }],
  });

  it('reports each component’s own render errors, with the container’s once', () => {
    const result = renderProblemsWithDefaults({
      container: minimalContainer(),
      components: [
        component(
          'fine',
          '<tr><td style="color: {{ render_context.design_tokens.colors.primary }}">{{ title }}</td></tr>',
        ),
        component('runaway', '{% for i in (1..100000000) %}{{ title }}{% endfor %}'),
      ],
      designTokens: { colors: { primary: '#123456' } },
      customStyles: [],
      limits: { renderLimitMs: 200 },
    });
    expect(result.container).toEqual([]);
    expect(result.components[0]).toEqual([]);
    expect(result.components[1]).toHaveLength(1);
    expect(result.components[1]?.[0]).toMatch(/limit exceeded/);
  });
});

describe('unsafeMarkupProblems', () => {
  it('accepts email-safe HTML', () => {
    expect(
      unsafeMarkupProblems('<table role="presentation"><tr><td><a href="{{ url }}">Go</a></td></tr></table>'),
    ).toEqual([]);
    expect(minimalContainer().template).toSatisfy(
      (template: string) => unsafeMarkupProblems(template).length === 0,
    );
  });

  it('names scripts, forms, media, event handlers and javascript: links', () => {
    expect(
      unsafeMarkupProblems(
        '<script>x()</script><SCRIPT></SCRIPT><form><input name="q"></form><video></video><td onclick="x()"><a href="javascript:x()">',
      ),
    ).toEqual([
      'must not contain <script>: email clients strip scripts, frames, forms and media',
      'must not contain <form>: email clients strip scripts, frames, forms and media',
      'must not contain <input>: email clients strip scripts, frames, forms and media',
      'must not contain <video>: email clients strip scripts, frames, forms and media',
      'must not use event handler attributes (onclick, onload, …)',
      'must not contain javascript: links',
    ]);
  });
});
