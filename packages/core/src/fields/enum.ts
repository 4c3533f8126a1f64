import type { FieldTypeSpec } from './field-type.ts';
import { messages } from './messages.ts';
import type { EnumOption, FieldDefinition } from './types.ts';

function isEnumOption(option: unknown): option is EnumOption {
  return typeof option === 'object' && option !== null && !Array.isArray(option);
}

export function enumValues(definition: FieldDefinition): string[] {
  return (definition.options ?? []).flatMap((option) =>
    isEnumOption(option) && typeof option.value === 'string' ? [option.value] : [],
  );
}

export const enumField: FieldTypeSpec = {
  type: 'enum',
  label: 'Dropdown',
  initialDefaultValue: '',
  editor: { control: 'select', insertsHtml: false },
  validations: {},
  extraKeys: ['options'],
  checkDefinition(definition, context) {
    const options: unknown = definition.options;
    if (options === undefined || options === null) {
      context.add('options', messages.required);
      return;
    }
    if (!Array.isArray(options)) {
      context.add('options', messages.mustBeArray);
      return;
    }
    if (options.length === 0) context.add('options', 'must have at least 1 option');
    const seen = new Set<string>();
    options.forEach((option: unknown, index) => {
      if (!isEnumOption(option)) {
        context.add(`options.${index}`, messages.mustBeObject);
        return;
      }
      for (const key of Object.keys(option)) {
        if (!['label', 'value', 'icon_url'].includes(key))
          context.add(`options.${index}.${key}`, messages.notKnownField);
      }
      if (option.label === undefined) context.add(`options.${index}.label`, messages.required);
      else if (typeof option.label !== 'string') context.add(`options.${index}.label`, messages.mustBeString);
      else if (option.label.trim() === '') context.add(`options.${index}.label`, messages.blank);
      if (option.value === undefined) context.add(`options.${index}.value`, messages.required);
      else if (typeof option.value !== 'string') context.add(`options.${index}.value`, messages.mustBeString);
      else if (seen.has(option.value)) context.add(`options.${index}.value`, messages.taken);
      else seen.add(option.value);
      if (option.icon_url !== undefined && option.icon_url !== null && typeof option.icon_url !== 'string') {
        context.add(`options.${index}.icon_url`, messages.mustBeString);
      }
    });
    const values = enumValues(definition);
    if (typeof definition.default_value !== 'string' || !values.includes(definition.default_value)) {
      context.add('default_value', messages.oneOf(values));
    }
  },
  validateValue(definition, value) {
    if (value === null || value === undefined) return [];
    const values = enumValues(definition);
    return typeof value === 'string' && values.includes(value) ? [] : [messages.oneOf(values)];
  },
};
