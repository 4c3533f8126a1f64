import type { FieldTypeSpec } from './field-type.ts';
import { messages } from './messages.ts';

export const numberField: FieldTypeSpec = {
  type: 'number',
  label: 'Number',
  initialDefaultValue: 0,
  editor: { control: 'number_input', insertsHtml: false },
  validations: { min: 'number', max: 'number' },
  extraKeys: [],
  checkDefinition(definition, context) {
    if (typeof definition.default_value !== 'number' || !Number.isFinite(definition.default_value)) {
      context.add('default_value', messages.mustBeNumber);
      return;
    }
    const { min, max } = definition.validations ?? {};
    if (typeof min === 'number' && definition.default_value < min)
      context.add('default_value', messages.atLeast(min));
    if (typeof max === 'number' && definition.default_value > max)
      context.add('default_value', messages.atMost(max));
  },
  validateValue(definition, value) {
    if (value === null || value === undefined) return [];
    if (typeof value !== 'number' || !Number.isFinite(value)) return [messages.mustBeNumber];
    const { min, max } = definition.validations ?? {};
    const problems: string[] = [];
    if (typeof min === 'number' && value < min) problems.push(messages.atLeast(min));
    if (typeof max === 'number' && value > max) problems.push(messages.atMost(max));
    return problems;
  },
};
