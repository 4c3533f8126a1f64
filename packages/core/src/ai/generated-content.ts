import { type EmailContent, nullBranch } from '../content/types.ts';
import { alignmentChoices } from '../fields/alignment.ts';
import { enumValues } from '../fields/enum.ts';
import { validateFieldValue } from '../fields/index.ts';
import type { CustomStyle, FieldDefinition, FieldType } from '../fields/types.ts';
import type { BrandedComponent } from '../render/design-system.ts';
import { sanitizeRichText } from '../render/rich-text.ts';

/**
 * What an AI model may write into an email, and how its answer is read back. The model's output
 * is data, never code: it writes values of typed fields only (never `code` fields, never image
 * choices), every value is checked with the field's own validations, links must be http(s) or
 * mailto, rich text passes the rich-text allow-list, and template syntax it writes is broken
 * apart so that neither Liquid nor a sending platform runs it.
 */

/** A JSON Schema object, as sent to a provider's structured output. */
export type JsonSchema = { [keyword: string]: unknown };

/** A component the model may use, with the fields it may write. */
export interface AiComponent {
  component: BrandedComponent;
  fields: FieldDefinition[];
}

/** Where a value the model gave is wrong, and why: sent back to the model for a repair. */
export interface GenerationProblem {
  path: string;
  message: string;
}

export type GeneratedValue = string | number | boolean;

const writableFieldTypes: ReadonlySet<FieldType> = new Set<FieldType>([
  'text',
  'rich_text',
  'url',
  'number',
  'boolean',
  'enum',
  'color',
  'horizontal_align',
  'vertical_align',
]);

/** The fields of a component the model writes: typed data it can write, not hidden from AI. */
export function fieldsForAi(fields: readonly FieldDefinition[]): FieldDefinition[] {
  return fields.filter((field) => writableFieldTypes.has(field.type) && field.hidden_from_ai !== true);
}

/** The components the model may choose from: not the container, not hidden by the brand, not deprecated. */
export function componentsForAi(components: readonly BrandedComponent[]): AiComponent[] {
  return components
    .filter((component) => !component.container && !component.hidden && component.deprecated !== true)
    .map((component) => ({ component, fields: fieldsForAi(component.field_definitions) }));
}

function fieldValueSchema(field: FieldDefinition): JsonSchema {
  const description = [field.label, field.hint].filter(Boolean).join(': ');
  switch (field.type) {
    case 'number': {
      const { min, max } = field.validations ?? {};
      return {
        type: 'number',
        description,
        ...(typeof min === 'number' ? { minimum: min } : {}),
        ...(typeof max === 'number' ? { maximum: max } : {}),
      };
    }
    case 'boolean':
      return { type: 'boolean', description };
    case 'enum':
      return { type: 'string', enum: enumValues(field), description };
    case 'horizontal_align':
    case 'vertical_align':
      return { type: 'string', enum: alignmentChoices(field), description };
    case 'color':
      return {
        type: 'string',
        pattern: '^#[0-9a-fA-F]{6}$',
        description: `${description} (a hex colour such as #1a2b3c)`,
      };
    case 'url': {
      const required = field.validations?.must_not_be_blank === true;
      return {
        type: 'string',
        pattern: required ? '^(https?://|mailto:)\\S+$' : '^((https?://|mailto:)\\S+)?$',
        description: `${description} (an https:// or mailto: link${required ? '' : ', or empty'})`,
      };
    }
    case 'rich_text':
      return {
        type: 'string',
        description: `${description} (HTML: <p>, <strong>, <em>, <a href>, <ul>, <ol>, <li>)`,
      };
    default:
      return { type: 'string', description };
  }
}

/** Every field required and nothing else allowed: the form strict structured output asks for. */
function valuesSchema(fields: readonly FieldDefinition[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((field) => [field.liquid_variable, fieldValueSchema(field)])),
    required: fields.map((field) => field.liquid_variable),
    additionalProperties: false,
  };
}

const envelopeProperties = {
  subject: { type: 'string', description: 'The subject line' },
  preheader: { type: 'string', description: 'The preview text shown after the subject' },
};

/** The answer of a model that builds an email: a subject, a preheader and sections in order. */
export function composeEmailSchema(components: readonly AiComponent[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      ...envelopeProperties,
      sections: {
        type: 'array',
        description: 'The email’s sections from top to bottom, each one component with its values',
        items: {
          anyOf: components.map(({ component, fields }) => ({
            type: 'object',
            properties: {
              component: { type: 'string', enum: [component.name] },
              values: valuesSchema(fields),
            },
            required: ['component', 'values'],
            additionalProperties: false,
          })),
        },
      },
    },
    required: ['subject', 'preheader', 'sections'],
    additionalProperties: false,
  };
}

/** A section of an existing email the model rewrites, keeping its place and its component. */
export interface RewritableSection {
  instanceId: string;
  component: AiComponent;
  /** The section's current values in the locale being rewritten. */
  current: Record<string, unknown>;
}

/** The answer of a model that rewrites an email's values: the same sections, by instance id. */
export function rewriteEmailSchema(sections: readonly RewritableSection[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      ...envelopeProperties,
      sections: {
        type: 'object',
        properties: Object.fromEntries(
          sections.map((section) => [section.instanceId, valuesSchema(section.component.fields)]),
        ),
        required: sections.map((section) => section.instanceId),
        additionalProperties: false,
      },
    },
    required: ['subject', 'preheader', 'sections'],
    additionalProperties: false,
  };
}

/** The components as the model reads them, chosen by their descriptions. */
export function describeComponentsForPrompt(components: readonly AiComponent[]): string {
  return components
    .map(({ component, fields }) => {
      const heading = `- ${component.name} (${component.label})${component.description ? `: ${component.description}` : ''}`;
      const fieldLines = fields.map((field) => {
        const rules = Object.entries(field.validations ?? {})
          .filter(([, setting]) => setting !== false)
          .map(([rule, setting]) => (setting === true ? rule : `${rule} ${setting}`));
        const choices =
          field.type === 'enum'
            ? enumValues(field)
            : field.type === 'horizontal_align' || field.type === 'vertical_align'
              ? alignmentChoices(field)
              : [];
        return `    - ${field.liquid_variable} (${field.type}, “${field.label}”)${field.hint ? `: ${field.hint}` : ''}${
          choices.length > 0 ? `; one of ${choices.join(', ')}` : ''
        }${rules.length > 0 ? `; rules: ${rules.join(', ')}` : ''}`;
      });
      return [heading, ...fieldLines].join('\n');
    })
    .join('\n');
}

/**
 * Template syntax in model output, broken apart so it stays text: `{{`, `{%` (Liquid, Handlebars),
 * `%%` (AMPscript) and `<%` (ERB-like platforms) gain a space between their characters.
 */
export function neutralizeTemplateSyntax(text: string): string {
  return text
    .replace(/\{(?=[{%])/g, '{ ')
    .replace(/%(?=%)/g, '% ')
    .replace(/<%/g, '< %');
}

const linkPattern = /^(https?:\/\/[^\s]+|mailto:[^\s]+)$/i;

/** One field's value from the model: typed, made safe, then checked with the field's validations. */
function readFieldValue(
  field: FieldDefinition,
  raw: unknown,
  customStyles: readonly CustomStyle[],
): { value: GeneratedValue } | { problem: string } {
  if (raw === undefined || raw === null) return { problem: 'is missing' };
  let value: GeneratedValue;
  switch (field.type) {
    case 'number':
      if (typeof raw !== 'number' || !Number.isFinite(raw)) return { problem: 'must be a number' };
      value = raw;
      break;
    case 'boolean':
      if (typeof raw !== 'boolean') return { problem: 'must be true or false' };
      value = raw;
      break;
    default:
      if (typeof raw !== 'string') return { problem: 'must be text' };
      value = raw.trim();
  }
  // An optional link may stay empty; any other must be a link a reader can follow.
  if (field.type === 'url' && value !== '' && !linkPattern.test(String(value)))
    return { problem: 'must be an http(s) or mailto link' };
  if (field.type === 'text') value = neutralizeTemplateSyntax(String(value));
  if (field.type === 'rich_text') {
    value = neutralizeTemplateSyntax(
      sanitizeRichText(String(value), {
        marks: field.marks,
        allowedCustomStyleNames: field.custom_styles_names ?? [],
        customStyles: [...customStyles],
      }),
    );
  }
  const messages = validateFieldValue(field, value);
  return messages.length > 0 ? { problem: messages.join('; ') } : { value };
}

/** The values of one section, the valid ones kept, each invalid one reported at its path. */
export function readSectionValues(
  fields: readonly FieldDefinition[],
  raw: unknown,
  path: string,
  customStyles: readonly CustomStyle[] = [],
): { values: Record<string, GeneratedValue>; problems: GenerationProblem[] } {
  const values: Record<string, GeneratedValue> = {};
  const problems: GenerationProblem[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { values, problems: [{ path, message: 'must be an object of field values' }] };
  }
  for (const field of fields) {
    const read = readFieldValue(field, (raw as Record<string, unknown>)[field.liquid_variable], customStyles);
    if ('value' in read) values[field.liquid_variable] = read.value;
    else problems.push({ path: `${path}.${field.liquid_variable}`, message: read.problem });
  }
  return { values, problems };
}

function readEnvelope(answer: Record<string, unknown>, problems: GenerationProblem[]) {
  const line = (name: 'subject' | 'preheader') => {
    const raw = answer[name];
    if (typeof raw !== 'string' || raw.trim() === '') {
      problems.push({ path: name, message: 'must be non-empty text' });
      return undefined;
    }
    return neutralizeTemplateSyntax(raw.trim().replace(/\s+/g, ' '));
  };
  return { subject: line('subject'), preheader: line('preheader') };
}

export interface ComposedEmail {
  subject: string | undefined;
  preheader: string | undefined;
  sections: { component: AiComponent; values: Record<string, GeneratedValue> }[];
  problems: GenerationProblem[];
}

/** A built email as the model gave it: unknown components are dropped, invalid values reported. */
export function readComposedEmail(
  answer: unknown,
  components: readonly AiComponent[],
  customStyles: readonly CustomStyle[] = [],
): ComposedEmail {
  const problems: GenerationProblem[] = [];
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return {
      subject: undefined,
      preheader: undefined,
      sections: [],
      problems: [{ path: '', message: 'must be an object' }],
    };
  }
  const record = answer as Record<string, unknown>;
  const { subject, preheader } = readEnvelope(record, problems);
  const byName = new Map(components.map((entry) => [entry.component.name, entry]));
  const sections: ComposedEmail['sections'] = [];
  const rawSections = Array.isArray(record.sections) ? record.sections : [];
  if (rawSections.length === 0)
    problems.push({ path: 'sections', message: 'must list at least one section' });
  rawSections.forEach((raw, index) => {
    const path = `sections[${index}]`;
    const name = (raw as { component?: unknown } | null)?.component;
    const entry = typeof name === 'string' ? byName.get(name) : undefined;
    if (!entry) {
      problems.push({
        path: `${path}.component`,
        message: `must be one of ${[...byName.keys()].join(', ')}`,
      });
      return;
    }
    const read = readSectionValues(
      entry.fields,
      (raw as { values?: unknown }).values,
      `${path}.values`,
      customStyles,
    );
    problems.push(...read.problems);
    sections.push({ component: entry, values: read.values });
  });
  return { subject, preheader, sections, problems };
}

export interface RewrittenEmail {
  subject: string | undefined;
  preheader: string | undefined;
  /** Instance id → the valid values the model gave for it. */
  values: Map<string, Record<string, GeneratedValue>>;
  problems: GenerationProblem[];
}

export function readRewrittenEmail(
  answer: unknown,
  sections: readonly RewritableSection[],
  customStyles: readonly CustomStyle[] = [],
): RewrittenEmail {
  const problems: GenerationProblem[] = [];
  const values = new Map<string, Record<string, GeneratedValue>>();
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return {
      subject: undefined,
      preheader: undefined,
      values,
      problems: [{ path: '', message: 'must be an object' }],
    };
  }
  const record = answer as Record<string, unknown>;
  const { subject, preheader } = readEnvelope(record, problems);
  const rawSections = (record.sections ?? {}) as Record<string, unknown>;
  for (const section of sections) {
    const read = readSectionValues(
      section.component.fields,
      rawSections[section.instanceId],
      `sections.${section.instanceId}`,
      customStyles,
    );
    problems.push(...read.problems);
    values.set(section.instanceId, read.values);
  }
  return { subject, preheader, values, problems };
}

/** The problems as the model (and a person) reads them, one a line. */
export function describeProblems(problems: readonly GenerationProblem[]): string {
  return problems.map((problem) => `- ${problem.path || 'answer'}: ${problem.message}`).join('\n');
}

function setLine(
  text: EmailContent['subject'],
  locale: string,
  value: string | undefined,
): EmailContent['subject'] {
  if (value === undefined) return text;
  return {
    ...text,
    branch_content: {
      ...text.branch_content,
      [nullBranch]: { ...text.branch_content[nullBranch], [locale]: value },
    },
  };
}

function asFieldValues(values: Record<string, GeneratedValue>) {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }]));
}

/** The content with the built sections as its body and the subject and preheader set, in one locale. */
export function contentWithComposedEmail(
  content: EmailContent,
  composed: Pick<ComposedEmail, 'subject' | 'preheader' | 'sections'>,
  locale: string,
  newInstanceId: () => string,
): EmailContent {
  return {
    ...content,
    subject: setLine(content.subject, locale, composed.subject),
    preheader: setLine(content.preheader, locale, composed.preheader),
    component_instances: composed.sections.map((section) => ({
      id: newInstanceId(),
      component_id: section.component.component.id,
      field_values: { [nullBranch]: { [locale]: asFieldValues(section.values) } },
    })),
  };
}

/** The content with the rewritten values set in one locale; fields the model did not write keep theirs. */
export function contentWithRewrittenEmail(
  content: EmailContent,
  rewritten: Pick<RewrittenEmail, 'subject' | 'preheader' | 'values'>,
  locale: string,
): EmailContent {
  return {
    ...content,
    subject: setLine(content.subject, locale, rewritten.subject),
    preheader: setLine(content.preheader, locale, rewritten.preheader),
    component_instances: content.component_instances.map((instance) => {
      const values = rewritten.values.get(instance.id);
      if (!values) return instance;
      const branch = instance.field_values[nullBranch] ?? {};
      return {
        ...instance,
        field_values: {
          ...instance.field_values,
          [nullBranch]: { ...branch, [locale]: { ...(branch[locale] ?? {}), ...asFieldValues(values) } },
        },
      };
    }),
  };
}

/**
 * The sections of an email a model can rewrite: those whose component it may use, without
 * conditional content (each branch says something different on purpose; the model leaves them).
 */
export function rewritableSections(
  content: EmailContent,
  components: readonly AiComponent[],
  locale: string,
): RewritableSection[] {
  const byId = new Map(components.map((entry) => [entry.component.id, entry]));
  return content.component_instances.flatMap((instance) => {
    const component = byId.get(instance.component_id);
    if (!component || component.fields.length === 0 || instance.conditional_id != null) return [];
    const stored = instance.field_values[nullBranch]?.[locale] ?? {};
    const current = Object.fromEntries(
      component.fields.map((field) => [
        field.liquid_variable,
        stored[field.liquid_variable]?.value ?? field.default_value,
      ]),
    );
    return [{ instanceId: instance.id, component, current }];
  });
}
