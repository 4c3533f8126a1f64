import type { FieldTypeSpec } from './field-type.ts';
import { messages } from './messages.ts';
import { checkStringDefault, validateTextLike } from './shared.ts';

/**
 * A link target. The value is not checked as a URL: templates and sending platforms legitimately
 * put placeholders here (`{{ unsubscribe_url }}`, `%%view_email_url%%`).
 */
export const urlField: FieldTypeSpec = {
  type: 'url',
  label: 'URL',
  initialDefaultValue: 'https://',
  editor: { control: 'url_input', insertsHtml: false },
  validations: { must_not_be_blank: 'boolean', must_not_be_default: 'boolean' },
  extraKeys: ['skip_link_tracking'],
  checkDefinition(definition, context) {
    checkStringDefault(definition, context);
    if (definition.skip_link_tracking !== undefined && typeof definition.skip_link_tracking !== 'boolean') {
      context.add('skip_link_tracking', messages.mustBeBoolean);
    }
  },
  validateValue: validateTextLike,
};
