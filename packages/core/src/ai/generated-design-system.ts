import { htmlTags } from '../checks/html-tags.ts';
import { contentFromSimpleRender } from '../content/simple-render.ts';
import { fieldTypeSpecs } from '../fields/index.ts';
import { type CustomStyle, type FieldDefinition, type FieldType, fieldTypes } from '../fields/types.ts';
import type { ComponentDefinition } from '../render/design-system.ts';
import type { Diagnostic } from '../render/diagnostics.ts';
import { defaultRenderLimits } from '../render/liquid-engine.ts';
import type { RenderBudget } from '../render/render.ts';
import { render } from '../render/render-email.ts';
import type { GenerationProblem, JsonSchema } from './generated-content.ts';

/**
 * A design system designed by an AI model from a brief. The model answers in a simple, strict
 * shape (every key present, optional ones null, design tokens as a list of dotted paths) that
 * structured outputs of every provider accept; it is converted here to the stored shape, which
 * the caller then checks like any imported design system, and renders once with default values.
 */

/** A component as the model designed it, in the stored (import) shape; not yet checked. */
export interface GeneratedComponent {
  name: string;
  label: string;
  description: string | null;
  template: string;
  field_definitions: FieldDefinition[];
}

export interface GeneratedDesignSystem {
  /** Null when the answer has none (a problem says so). */
  container: GeneratedComponent | null;
  components: GeneratedComponent[];
  /** The tokens the model defined, as the nested object templates read. */
  designTokens: Record<string, unknown>;
  /** What is wrong with the answer as a whole (not with one component): structure, token paths. */
  problems: GenerationProblem[];
}

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const nullableString = (description: string): JsonSchema => ({ type: ['string', 'null'], description });

/** The validation keys the model may set; each field type keeps the ones it knows. */
const validationsSchema: JsonSchema = {
  type: 'object',
  description: 'Rules for the value an author types; null for none',
  properties: {
    max_length: {
      type: ['integer', 'null'],
      description: 'text and rich_text: the most characters allowed',
    },
    must_not_be_blank: {
      type: ['boolean', 'null'],
      description: 'text, rich_text, url, image, code: a value is required',
    },
    min: { type: ['number', 'null'], description: 'number: the smallest value' },
    max: { type: ['number', 'null'], description: 'number: the largest value' },
  },
  required: ['max_length', 'must_not_be_blank', 'min', 'max'],
  additionalProperties: false,
};

const fieldDefinitionSchema: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: [...fieldTypes] },
    label: { type: 'string', description: 'What the editor shows, e.g. "Headline"' },
    liquid_variable: {
      type: 'string',
      description: 'The Liquid variable the template prints, in snake_case, e.g. headline',
    },
    default_value: {
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
      description:
        'A string for text, rich_text (HTML), url, image (a URL), color (#rrggbb), code, enum and the alignments (one of the options); a number for number; true or false for boolean',
    },
    hint: nullableString('Help shown under the field, or null'),
    group: nullableString('Fields with the same group are shown together (e.g. "Button"), or null'),
    options: nullable({
      type: 'array',
      description:
        'enum: the choices; horizontal_align: some of left, center, right; vertical_align: some of top, middle, bottom (label and value the same). Null for every other type',
      items: {
        type: 'object',
        properties: { label: { type: 'string' }, value: { type: 'string' } },
        required: ['label', 'value'],
        additionalProperties: false,
      },
    }),
    validations: nullable(validationsSchema),
  },
  required: ['type', 'label', 'liquid_variable', 'default_value', 'hint', 'group', 'options', 'validations'],
  additionalProperties: false,
};

const componentSchema = (role: string): JsonSchema => ({
  type: 'object',
  description: role,
  properties: {
    name: {
      type: 'string',
      description:
        'A unique snake_case identifier: lower-case letters, digits and underscores, e.g. hero_banner',
    },
    label: { type: 'string', description: 'The name authors see, e.g. "Hero banner"' },
    description: {
      type: 'string',
      description: 'What the component is for and when to use it (AI agents choose components by it)',
    },
    template: { type: 'string', description: 'The Liquid and HTML of the component' },
    field_definitions: { type: 'array', items: fieldDefinitionSchema },
  },
  required: ['name', 'label', 'description', 'template', 'field_definitions'],
  additionalProperties: false,
});

/** What the model answers: a container, the components, and design tokens (or null). */
export function designSystemGenerationSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      design_tokens: nullable({
        type: 'array',
        description:
          'Values shared by every component (colours, fonts, sizes), read in templates as {{render_context.design_tokens.<path>}}',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'Names joined by dots, e.g. colors.primary' },
            value: { type: 'string', description: 'e.g. #1a73e8, Helvetica, Arial, sans-serif, or 24' },
          },
          required: ['path', 'value'],
          additionalProperties: false,
        },
      }),
      container: componentSchema(
        'The container: the whole HTML document, with {{children}} where the components go',
      ),
      components: {
        type: 'array',
        description: '6 to 12 components authors stack inside the container',
        items: componentSchema('A component'),
      },
    },
    required: ['design_tokens', 'container', 'components'],
    additionalProperties: false,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const present = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** Longest hint and group the API stores (see the FieldDefinition schema). */
const hintLength = 500;
const groupLength = 100;

/** Validations named as the model may name them, in the field type's own words. */
function storedValidations(type: FieldType, raw: Record<string, unknown>): Record<string, number | boolean> {
  const known = fieldTypeSpecs[type].validations;
  const validations: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === null || value === undefined) continue;
    // Rich text counts the characters of its text, not of its HTML.
    const name = type === 'rich_text' && key === 'max_length' ? 'max_content_length' : key;
    if (name in known && (typeof value === 'number' || typeof value === 'boolean')) validations[name] = value;
  }
  return validations;
}

/**
 * A field definition in the stored shape: null optional keys left out, choices in the shape of
 * the field's type, validations the type does not have dropped (harmless, so not worth a repair).
 * What does not fit is kept as it is, for the field checks to report.
 */
export function storedFieldDefinition(raw: unknown): FieldDefinition {
  if (!isPlainObject(raw)) return raw as FieldDefinition;
  const field: Record<string, unknown> = {
    type: raw.type,
    label: typeof raw.label === 'string' ? raw.label.trim() : raw.label,
    liquid_variable:
      typeof raw.liquid_variable === 'string' ? raw.liquid_variable.trim() : raw.liquid_variable,
    default_value: raw.default_value,
  };
  if (present(raw.hint)) field.hint = raw.hint.trim().slice(0, hintLength);
  if (present(raw.group)) field.group = raw.group.trim().slice(0, groupLength);
  if (present(raw.visible_if)) field.visible_if = raw.visible_if.trim();
  const type = (fieldTypes as readonly unknown[]).includes(raw.type) ? (raw.type as FieldType) : null;
  if (type === 'enum' && raw.options !== null && raw.options !== undefined) field.options = raw.options;
  if ((type === 'horizontal_align' || type === 'vertical_align') && Array.isArray(raw.options)) {
    field.options = raw.options.map((option: unknown) =>
      isPlainObject(option) && typeof option.value === 'string' ? option.value.trim() : option,
    );
  }
  if (type && isPlainObject(raw.validations)) {
    const validations = storedValidations(type, raw.validations);
    if (Object.keys(validations).length > 0) field.validations = validations;
  }
  return field as unknown as FieldDefinition;
}

function readComponent(raw: unknown): GeneratedComponent | null {
  if (!isPlainObject(raw)) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    name: text(raw.name).trim(),
    label: text(raw.label).trim(),
    description: present(raw.description) ? raw.description.trim() : null,
    template: text(raw.template),
    field_definitions: Array.isArray(raw.field_definitions)
      ? raw.field_definitions.map(storedFieldDefinition)
      : (raw.field_definitions as FieldDefinition[]),
  };
}

const tokenPath = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** The token entries as a nested object; entries that cannot be placed are problems, and left out. */
function readDesignTokens(raw: unknown, problems: GenerationProblem[]): Record<string, unknown> {
  const tokens: Record<string, unknown> = {};
  if (raw === null || raw === undefined) return tokens;
  if (!Array.isArray(raw)) {
    problems.push({ path: 'design_tokens', message: 'must be a list of {path, value}, or null' });
    return tokens;
  }
  raw.forEach((entry: unknown, index) => {
    const at = `design_tokens.${index}`;
    if (!isPlainObject(entry) || typeof entry.path !== 'string') {
      problems.push({ path: at, message: 'must be an object with a path and a value' });
      return;
    }
    const path = entry.path.trim();
    if (!tokenPath.test(path)) {
      problems.push({ path: `${at}.path`, message: 'must be names joined by dots, such as colors.primary' });
      return;
    }
    const value = entry.value;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      problems.push({ path: `${at}.value`, message: 'must be a string' });
      return;
    }
    const names = path.split('.');
    const last = names.pop() as string;
    let node = tokens;
    for (const name of names) {
      const next = node[name];
      if (next === undefined) node[name] = {};
      else if (!isPlainObject(next)) {
        problems.push({ path: `${at}.path`, message: `${path} is inside another token that has a value` });
        return;
      }
      node = node[name] as Record<string, unknown>;
    }
    if (node[last] !== undefined) {
      problems.push({ path: `${at}.path`, message: `${path} is defined twice, or holds other tokens` });
      return;
    }
    node[last] = value;
  });
  return tokens;
}

/** Reads the model's answer into the stored shapes; what is unreadable becomes a problem. */
export function readGeneratedDesignSystem(value: unknown): GeneratedDesignSystem {
  const problems: GenerationProblem[] = [];
  if (!isPlainObject(value)) {
    return {
      container: null,
      components: [],
      designTokens: {},
      problems: [{ path: '', message: 'must be a JSON object with design_tokens, container and components' }],
    };
  }
  const container = readComponent(value.container);
  if (!container) problems.push({ path: 'container', message: 'is required: a component object' });
  const components: GeneratedComponent[] = [];
  if (!Array.isArray(value.components)) {
    problems.push({ path: 'components', message: 'must be a list of components' });
  } else {
    value.components.forEach((raw: unknown, index) => {
      const component = readComponent(raw);
      if (component) components.push(component);
      else problems.push({ path: `components.${index}`, message: 'must be a component object' });
    });
  }
  const designTokens = readDesignTokens(value.design_tokens, problems);
  return { container, components, designTokens, problems };
}

/**
 * A plain, valid container: a full email document centring the components in a 600px table,
 * with the subject as its title and the preheader hidden at the top. Used when the model's own
 * container could not be repaired, so the design system is usable anyway.
 */
export function minimalContainer(name = 'container'): GeneratedComponent {
  return {
    name,
    label: 'Container',
    description:
      'Wraps every email: the document, its background and the 600px column the components stack in.',
    template: [
      '<!DOCTYPE html>',
      '<html lang="{{ render_context.email.locale }}" dir="{{ render_context.email.text_direction }}">',
      '<head>',
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<title>{{ render_context.email.content.subject }}</title>',
      '</head>',
      '<body style="margin: 0; padding: 0; background-color: {{ background_color }};">',
      '<div style="display: none; max-height: 0; overflow: hidden;">{{ render_context.email.content.preheader }}</div>',
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color: {{ background_color }};">',
      '<tr>',
      '<td align="center" style="padding: 24px 0;">',
      '<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width: 100%; max-width: 600px; background-color: #ffffff;">',
      '{{children}}',
      '</table>',
      '</td>',
      '</tr>',
      '</table>',
      '</body>',
      '</html>',
    ].join('\n'),
    field_definitions: [
      {
        type: 'color',
        label: 'Background colour',
        liquid_variable: 'background_color',
        default_value: '#f4f4f5',
      },
    ],
  };
}

/** Tags email clients strip or refuse: scripts, frames, embedded media, form controls. */
const unsafeTags = [
  'script',
  'iframe',
  'frame',
  'object',
  'embed',
  'applet',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'video',
  'audio',
];

/**
 * What in a template is not email-safe HTML: tags email clients strip (scripts, frames, forms,
 * media), inline event handlers and javascript: links. A developer may still write these by hand;
 * a model's design is held to email-safe HTML.
 */
export function unsafeMarkupProblems(template: string): string[] {
  const problems = [...new Set(htmlTags(template, unsafeTags).map((tag) => tag.name))].map(
    (name) => `must not contain <${name}>: email clients strip scripts, frames, forms and media`,
  );
  if (/<[a-zA-Z][^>]*\son[a-z]+\s*=/i.test(template)) {
    problems.push('must not use event handler attributes (onclick, onload, …)');
  }
  if (/javascript\s*:/i.test(template)) problems.push('must not contain javascript: links');
  return problems;
}

function describeDiagnostic(diagnostic: Diagnostic): string {
  return diagnostic.line === undefined
    ? diagnostic.message
    : `${diagnostic.message} (line ${diagnostic.line}, column ${diagnostic.column ?? 1})`;
}

/**
 * Renders the container alone, then each component inside it, once, with its default values, as
 * a design-system preview does (strictly, within render limits). Returns each one's render
 * errors: an empty list when it rendered.
 */
export function renderProblemsWithDefaults(input: {
  container: GeneratedComponent;
  components: readonly GeneratedComponent[];
  designTokens: Record<string, unknown>;
  customStyles: readonly CustomStyle[];
  limits?: { renderLimitMs?: number; memoryLimit?: number };
  /** One time budget for all these renders (see `RenderInput.budget`); without it, limits per instance. */
  budget?: RenderBudget;
}): { container: string[]; components: string[][] } {
  const locale = 'en-US';
  const definitions: ComponentDefinition[] = [
    { ...input.container, id: 1, container: true },
    ...input.components.map((component, index) => ({ ...component, id: index + 2, container: false })),
  ];
  const renderWith = (componentIds: number[]) =>
    render({
      designSystem: {
        id: 0,
        name: 'Generated design system',
        design_tokens: input.designTokens,
        custom_styles: [...input.customStyles],
      },
      components: definitions,
      brandProfile: null,
      content: contentFromSimpleRender(
        {
          subject: 'Subject',
          preheader: 'Preheader',
          container_component_instance: { component_id: 1, field_values: {} },
          component_instances: componentIds.map((id) => ({ component_id: id, field_values: {} })),
        },
        locale,
      ),
      locale,
      mode: 'email_design_system_preview',
      strict: true,
      limits: {
        renderLimitMs: input.limits?.renderLimitMs ?? defaultRenderLimits.renderLimitMs,
        memoryLimit: input.limits?.memoryLimit ?? defaultRenderLimits.memoryLimit,
      },
      ...(input.budget ? { budget: input.budget } : {}),
    }).diagnostics.filter((diagnostic) => diagnostic.severity === 'error');

  const container = renderWith([]).map(describeDiagnostic);
  const components = input.components.map((_, index) =>
    renderWith([index + 2])
      // The container's own errors are reported once, above; these are the component's.
      .filter((diagnostic) => diagnostic.componentInstanceId === 'simple-0')
      .map(describeDiagnostic),
  );
  return { container, components };
}
