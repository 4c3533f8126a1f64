import { lengthWithTagsAsOne } from '../dynamic-content/personalization-tags.ts';
import { richTextContent } from '../render/rich-text.ts';
import type { FieldTypeSpec } from './field-type.ts';
import { messages } from './messages.ts';
import { blankAndDefaultMessages, checkStringDefault, textOf } from './shared.ts';
import { richTextMarkNames } from './types.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const richTextField: FieldTypeSpec = {
  type: 'rich_text',
  label: 'Rich text',
  initialDefaultValue: '<p></p>',
  editor: { control: 'rich_text_editor', insertsHtml: true },
  validations: {
    min_content_length: 'length',
    max_content_length: 'length',
    must_not_be_blank: 'boolean',
    must_not_be_default: 'boolean',
  },
  extraKeys: ['marks', 'custom_styles_names'],
  checkDefinition(definition, context) {
    checkStringDefault(definition, context);
    const marks: unknown = definition.marks;
    if (marks !== undefined && marks !== null) {
      if (!isPlainObject(marks)) context.add('marks', messages.mustBeObject);
      else {
        for (const [name, mark] of Object.entries(marks)) {
          if (!(richTextMarkNames as readonly string[]).includes(name)) {
            context.add(`marks.${name}`, messages.notKnownField);
            continue;
          }
          if (!isPlainObject(mark)) {
            context.add(`marks.${name}`, messages.mustBeObject);
            continue;
          }
          if (typeof mark.enabled !== 'boolean') context.add(`marks.${name}.enabled`, messages.mustBeBoolean);
          const styleName = mark.custom_style_name;
          if (styleName !== undefined && styleName !== null) {
            if (typeof styleName !== 'string')
              context.add(`marks.${name}.custom_style_name`, messages.mustBeString);
            else if (!context.customStyleNames.includes(styleName)) {
              context.add(`marks.${name}.custom_style_name`, 'is not a custom style of this design system');
            }
          }
        }
      }
    }
    const names: unknown = definition.custom_styles_names;
    if (names !== undefined) {
      if (!Array.isArray(names)) context.add('custom_styles_names', messages.mustBeArray);
      else
        names.forEach((name: unknown, index) => {
          if (typeof name !== 'string') context.add(`custom_styles_names.${index}`, messages.mustBeString);
          else if (!context.customStyleNames.includes(name)) {
            context.add(`custom_styles_names.${index}`, 'is not a custom style of this design system');
          }
        });
    }
  },
  validateValue(definition, value) {
    const html = textOf(value);
    if (html === null) return [messages.mustBeString];
    const content = richTextContent(html);
    const problems = blankAndDefaultMessages(definition, html, () => content === '');
    const validations = definition.validations ?? {};
    // A personalization tag counts as one character, as in text fields.
    const length = lengthWithTagsAsOne(content);
    if (typeof validations.min_content_length === 'number' && length < validations.min_content_length) {
      problems.push(messages.atLeastCharacters(validations.min_content_length));
    }
    if (typeof validations.max_content_length === 'number' && length > validations.max_content_length) {
      problems.push(messages.atMostCharacters(validations.max_content_length));
    }
    return problems;
  },
};
