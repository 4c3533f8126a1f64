import type { DefinitionCheckContext } from './field-type.ts';
import { isBlank, messages } from './messages.ts';
import type { FieldDefinition } from './types.ts';

/** A missing value (null or absent) counts as the empty string for text-like fields. */
export function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : null;
}

export function checkStringDefault(definition: FieldDefinition, context: DefinitionCheckContext): void {
  if (typeof definition.default_value !== 'string') context.add('default_value', messages.mustBeString);
}

/** must_not_be_blank and must_not_be_default, shared by text, url, image, code and rich_text. */
export function blankAndDefaultMessages(
  definition: FieldDefinition,
  value: string,
  isValueBlank: (value: string) => boolean = isBlank,
): string[] {
  const problems: string[] = [];
  const validations = definition.validations ?? {};
  if (validations.must_not_be_blank === true && isValueBlank(value)) problems.push(messages.blank);
  if (validations.must_not_be_default === true && value === definition.default_value) {
    problems.push(messages.mustChangeDefault);
  }
  return problems;
}

export function validateTextLike(definition: FieldDefinition, value: unknown): string[] {
  const text = textOf(value);
  if (text === null) return [messages.mustBeString];
  return blankAndDefaultMessages(definition, text);
}
