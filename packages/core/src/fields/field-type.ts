import type { FieldDefinition, FieldType } from './types.ts';

/** How the editor should present a field; the web app maps each control to a widget. */
export interface EditorHints {
  control:
    | 'text_input'
    | 'number_input'
    | 'select'
    | 'switch'
    | 'url_input'
    | 'image_picker'
    | 'color_picker'
    | 'rich_text_editor'
    | 'code_editor'
    | 'alignment_buttons';
  /** Whether the value is inserted into the HTML as markup (true) or as escaped text (false). */
  insertsHtml: boolean;
}

export type ValidationKind = 'length' | 'number' | 'boolean';

export interface DefinitionCheckContext {
  customStyleNames: readonly string[];
  /** Records a problem at a path relative to the field definition (`default_value`, `options.1.value`). */
  add(path: string, message: string): void;
}

/** Everything Letterset knows about one field type. One file per type implements it. */
export interface FieldTypeSpec {
  type: FieldType;
  /** Human name, as the component builder shows it. */
  label: string;
  /** The value a newly added field of this type starts with. */
  initialDefaultValue: string | number | boolean;
  editor: EditorHints;
  /** Validation keys this type understands and the kind of number each takes. */
  validations: Record<string, ValidationKind>;
  /** Keys beyond the common ones that this type accepts. */
  extraKeys: readonly string[];
  /** Problems with the type-specific keys and the default value. */
  checkDefinition(definition: FieldDefinition, context: DefinitionCheckContext): void;
  /** Problems with a value against the definition's validations (value already normalised). */
  validateValue(definition: FieldDefinition, value: unknown): string[];
}
