import { liquid, parseTemplate } from '../render/liquid-engine.ts';
import { horizontalAlignField, verticalAlignField } from './alignment.ts';
import { booleanField } from './boolean.ts';
import { codeField } from './code.ts';
import { colorField } from './color.ts';
import { enumField } from './enum.ts';
import type { FieldTypeSpec } from './field-type.ts';
import { imageField } from './image.ts';
import { messages } from './messages.ts';
import { numberField } from './number.ts';
import { richTextField } from './rich-text.ts';
import { textField } from './text.ts';
import { commonFieldKeys, type FieldDefinition, type FieldType, fieldTypes } from './types.ts';
import { urlField } from './url.ts';

export { alignmentChoices, horizontalAlignments, verticalAlignments } from './alignment.ts';
export { isHexColor } from './color.ts';
export { enumValues } from './enum.ts';
export type { DefinitionCheckContext, EditorHints, FieldTypeSpec, ValidationKind } from './field-type.ts';
export { messages as fieldMessages } from './messages.ts';
export * from './types.ts';

export const fieldTypeSpecs: Readonly<Record<FieldType, FieldTypeSpec>> = {
  text: textField,
  number: numberField,
  enum: enumField,
  boolean: booleanField,
  url: urlField,
  image: imageField,
  color: colorField,
  rich_text: richTextField,
  code: codeField,
  horizontal_align: horizontalAlignField,
  vertical_align: verticalAlignField,
};

/** Names a template already uses for something else, so a field cannot take them. */
export const reservedLiquidVariables = [
  'children',
  'global_fields',
  'render_context',
  'blank',
  'empty',
  'nil',
  'null',
  'true',
  'false',
] as const;

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (fieldTypes as readonly string[]).includes(value);
}

/**
 * Problems with a component's field definitions, keyed by path relative to the list
 * (`2.default_value`, `0.liquid_variable`, `3.options.1.value`); a list that is not a list is
 * reported under `base`. An empty object means the definitions are valid.
 */
export function validateFieldDefinitions(
  definitions: unknown,
  context: { customStyleNames: readonly string[] },
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (path: string, message: string) => {
    const list = errors[path] ?? [];
    if (!list.includes(message)) errors[path] = [...list, message];
  };
  if (!Array.isArray(definitions)) {
    add('base', messages.mustBeArray);
    return errors;
  }

  const variables = definitions.map((definition: unknown) =>
    isPlainObject(definition) && typeof definition.liquid_variable === 'string'
      ? definition.liquid_variable
      : null,
  );

  definitions.forEach((definition: unknown, index) => {
    const at = (path: string, message: string) => add(`${index}.${path}`, message);
    if (!isPlainObject(definition)) {
      add(String(index), messages.mustBeObject);
      return;
    }
    for (const key of ['type', 'label', 'liquid_variable', 'default_value'] as const) {
      if (definition[key] === undefined || definition[key] === null) at(key, messages.required);
    }

    if (definition.type !== undefined && definition.type !== null && !isFieldType(definition.type)) {
      at('type', messages.oneOf(fieldTypes));
    }
    if (definition.label !== undefined && definition.label !== null) {
      if (typeof definition.label !== 'string') at('label', messages.mustBeString);
      else if (definition.label.trim() === '') at('label', messages.blank);
    }

    const variable = definition.liquid_variable;
    if (variable !== undefined && variable !== null) {
      if (typeof variable !== 'string') at('liquid_variable', messages.mustBeString);
      else if (!identifier.test(variable)) {
        at(
          'liquid_variable',
          'must start with a letter or underscore and contain only letters, digits and underscores',
        );
      } else if ((reservedLiquidVariables as readonly string[]).includes(variable)) {
        at('liquid_variable', 'is reserved');
      } else if (variables.indexOf(variable) !== index) at('liquid_variable', messages.taken);
    }

    for (const key of ['group', 'hint', 'feed_field_name', 'visible_if'] as const) {
      const value = definition[key];
      if (value !== undefined && value !== null && typeof value !== 'string') at(key, messages.mustBeString);
    }
    for (const key of ['hidden_in_editor', 'hidden_from_ai'] as const) {
      const value = definition[key];
      if (value !== undefined && typeof value !== 'boolean') at(key, messages.mustBeBoolean);
    }
    if (typeof definition.visible_if === 'string' && definition.visible_if.trim() !== '') {
      const siblings = variables.filter(
        (name, position): name is string => name !== null && position !== index,
      );
      for (const message of visibleIfProblems(definition.visible_if, siblings)) at('visible_if', message);
    }

    if (!isFieldType(definition.type)) return;
    const spec = fieldTypeSpecs[definition.type];
    const knownKeys = new Set<string>([...commonFieldKeys, ...spec.extraKeys]);
    for (const key of Object.keys(definition)) {
      if (!knownKeys.has(key)) at(key, messages.notKnownField);
    }
    checkValidations(definition.validations, spec, (path, message) => at(path, message));
    if (definition.default_value !== undefined && definition.default_value !== null) {
      spec.checkDefinition(definition as unknown as FieldDefinition, {
        customStyleNames: context.customStyleNames,
        add: at,
      });
    }
  });
  return errors;
}

function checkValidations(
  validations: unknown,
  spec: FieldTypeSpec,
  add: (path: string, message: string) => void,
): void {
  if (validations === undefined || validations === null) return;
  if (!isPlainObject(validations)) {
    add('validations', messages.mustBeObject);
    return;
  }
  const label = spec.type.replace('_', ' ');
  for (const [key, value] of Object.entries(validations)) {
    const kind = spec.validations[key];
    const path = `validations.${key}`;
    if (kind === undefined) add(path, `is not a validation for ${label} fields`);
    else if (kind === 'boolean' && typeof value !== 'boolean') add(path, messages.mustBeBoolean);
    else if (kind === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) {
      add(path, messages.mustBeNumber);
    } else if (kind === 'length' && (typeof value !== 'number' || !Number.isInteger(value) || value < 0)) {
      add(path, 'must be a whole number of at least 0');
    }
  }
  for (const [low, high] of [
    ['min_length', 'max_length'],
    ['min', 'max'],
    ['min_content_length', 'max_content_length'],
  ] as const) {
    const lowValue = validations[low];
    const highValue = validations[high];
    if (typeof lowValue === 'number' && typeof highValue === 'number' && lowValue > highValue) {
      add(`validations.${low}`, messages.atMost(highValue));
    }
  }
}

/** A visible_if must parse as a Liquid expression and may only name sibling fields. */
function visibleIfProblems(expression: string, siblingVariables: readonly string[]): string[] {
  if (/\{[{%]|[%}]\}/.test(expression)) return ['must be a Liquid expression without {{ }} or {% %}'];
  let names: string[];
  try {
    names = liquid.globalVariablesSync(`{% if ${expression} %}{% endif %}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/, line:\d+, col:\d+$/, '') : String(error);
    return [`is not a valid Liquid expression (${reason})`];
  }
  return names
    .filter((name) => !siblingVariables.includes(name))
    .map((name) => `refers to ${name}, which is not a field of this component`);
}

/** Messages for one value against its definition's type and validations; empty when valid. */
export function validateFieldValue(definition: FieldDefinition, value: unknown): string[] {
  return fieldTypeSpecs[definition.type].validateValue(definition, value);
}

/**
 * Whether the editor shows a field, given the component's current values. `visible_if` is a
 * Liquid condition (`show_cta == true`); a condition that cannot be evaluated shows the field,
 * so a typo never hides content from the people who must edit it.
 */
export function isFieldVisible(definition: FieldDefinition, values: Record<string, unknown>): boolean {
  const condition = definition.visible_if?.trim();
  if (!condition) return true;
  try {
    return liquid.renderSync(parseTemplate(`{% if ${condition} %}1{% endif %}`), values) === '1';
  } catch {
    return true;
  }
}
