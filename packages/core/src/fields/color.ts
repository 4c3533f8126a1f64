import type { FieldTypeSpec } from './field-type.ts';
import { messages } from './messages.ts';

const hexColor = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
export const colorMessage = 'must be a hex color such as #1A2B3C';

export function isHexColor(value: unknown): boolean {
  return typeof value === 'string' && hexColor.test(value);
}

export const colorField: FieldTypeSpec = {
  type: 'color',
  label: 'Color',
  initialDefaultValue: '#000000',
  editor: { control: 'color_picker', insertsHtml: false },
  validations: {},
  extraKeys: [],
  checkDefinition(definition, context) {
    if (typeof definition.default_value !== 'string') context.add('default_value', messages.mustBeString);
    else if (!isHexColor(definition.default_value)) context.add('default_value', colorMessage);
  },
  validateValue(_definition, value) {
    if (value === null || value === undefined) return [];
    if (typeof value !== 'string') return [messages.mustBeString];
    return isHexColor(value) ? [] : [colorMessage];
  },
};
