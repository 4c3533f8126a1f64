import type { FieldTypeSpec } from './field-type.ts';
import { messages } from './messages.ts';

export const booleanField: FieldTypeSpec = {
  type: 'boolean',
  label: 'Toggle',
  initialDefaultValue: false,
  editor: { control: 'switch', insertsHtml: false },
  validations: {},
  extraKeys: [],
  checkDefinition(definition, context) {
    if (typeof definition.default_value !== 'boolean') context.add('default_value', messages.mustBeBoolean);
  },
  validateValue(_definition, value) {
    if (value === null || value === undefined || typeof value === 'boolean') return [];
    return [messages.mustBeBoolean];
  },
};
