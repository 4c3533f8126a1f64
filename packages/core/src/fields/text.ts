import { lengthWithTagsAsOne } from '../dynamic-content/personalization-tags.ts';
import type { FieldTypeSpec } from './field-type.ts';
import { messages } from './messages.ts';
import { blankAndDefaultMessages, checkStringDefault, textOf } from './shared.ts';

export const textField: FieldTypeSpec = {
  type: 'text',
  label: 'Text',
  initialDefaultValue: '',
  editor: { control: 'text_input', insertsHtml: false },
  validations: {
    min_length: 'length',
    max_length: 'length',
    must_not_be_blank: 'boolean',
    must_not_be_default: 'boolean',
  },
  extraKeys: [],
  checkDefinition: checkStringDefault,
  validateValue(definition, value) {
    const text = textOf(value);
    if (text === null) return [messages.mustBeString];
    const validations = definition.validations ?? {};
    const problems = blankAndDefaultMessages(definition, text);
    // Characters as people count them (an emoji is one), a personalization tag one: its chip.
    const length = lengthWithTagsAsOne(text);
    if (typeof validations.min_length === 'number' && length < validations.min_length) {
      problems.push(messages.atLeastCharacters(validations.min_length));
    }
    if (typeof validations.max_length === 'number' && length > validations.max_length) {
      problems.push(messages.atMostCharacters(validations.max_length));
    }
    return problems;
  },
};
