/** The field types a component can declare, in the order the component builder offers them. */
export const fieldTypes = [
  'text',
  'number',
  'enum',
  'boolean',
  'url',
  'image',
  'color',
  'rich_text',
  'code',
  'horizontal_align',
  'vertical_align',
] as const;

export type FieldType = (typeof fieldTypes)[number];

export interface EnumOption {
  label: string;
  value: string;
  icon_url?: string | null;
}

/** One rich-text mark: whether the editor offers it, and an optional custom style it carries. */
export interface RichTextMark {
  enabled: boolean;
  custom_style_name?: string | null;
}

export interface RichTextMarks {
  bold?: RichTextMark;
  italic?: RichTextMark;
  link?: RichTextMark;
  bullet_list?: RichTextMark;
  numbered_list?: RichTextMark;
}

export const richTextMarkNames = ['bold', 'italic', 'link', 'bullet_list', 'numbered_list'] as const;
export type RichTextMarkName = (typeof richTextMarkNames)[number];

export interface CustomStyle {
  name: string;
  label: string;
  style: string;
}

export type FieldDefaultValue = string | number | boolean;

/**
 * A component's editable field, with exactly the keys stored and sent over the API (snake_case).
 *
 * Alignment fields list their choices in `options` as plain strings (`["left", "center"]`), which is
 * how imported design systems spell it; `alignments` is accepted as a synonym. When both are
 * present `options` wins. See `alignmentChoices`.
 */
export interface FieldDefinition {
  type: FieldType;
  label: string;
  liquid_variable: string;
  default_value: FieldDefaultValue;
  group?: string | null;
  visible_if?: string | null;
  hint?: string | null;
  validations?: Record<string, number | boolean> | null;
  hidden_in_editor?: boolean;
  hidden_from_ai?: boolean;
  feed_field_name?: string | null;
  /** enum: `{label, value}` choices; horizontal_align / vertical_align: a subset of the alignments. */
  options?: EnumOption[] | string[];
  alignments?: string[];
  skip_link_tracking?: boolean;
  marks?: RichTextMarks | null;
  custom_styles_names?: string[];
}

/** Keys every field definition may carry, whatever its type. */
export const commonFieldKeys = [
  'type',
  'label',
  'liquid_variable',
  'default_value',
  'group',
  'visible_if',
  'hint',
  'validations',
  'hidden_in_editor',
  'hidden_from_ai',
  'feed_field_name',
] as const;
