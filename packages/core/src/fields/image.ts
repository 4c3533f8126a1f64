import type { FieldTypeSpec } from './field-type.ts';
import { checkStringDefault, validateTextLike } from './shared.ts';

/** An image's URL (uploaded to the image library or typed in). */
export const imageField: FieldTypeSpec = {
  type: 'image',
  label: 'Image',
  initialDefaultValue: '',
  editor: { control: 'image_picker', insertsHtml: false },
  validations: { must_not_be_blank: 'boolean', must_not_be_default: 'boolean' },
  extraKeys: [],
  checkDefinition: checkStringDefault,
  validateValue: validateTextLike,
};
