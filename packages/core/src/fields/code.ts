import type { FieldTypeSpec } from './field-type.ts';
import { checkStringDefault, validateTextLike } from './shared.ts';

/** Raw HTML the editor user pastes; inserted into the email unescaped and unsanitised. */
export const codeField: FieldTypeSpec = {
  type: 'code',
  label: 'Code',
  initialDefaultValue: '',
  editor: { control: 'code_editor', insertsHtml: true },
  validations: { must_not_be_blank: 'boolean', must_not_be_default: 'boolean' },
  extraKeys: [],
  checkDefinition: checkStringDefault,
  validateValue: validateTextLike,
};
