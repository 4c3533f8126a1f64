/**
 * Where a locale's value came from, for the "untranslated" check and the Localization panel:
 * `copied` from another locale (still its text), `translated` by AI or a translation file,
 * `edited` by a person in that locale. Absent in content stored before statuses existed (and in
 * the default locale): the value is then judged by its text alone.
 */
export type TranslationStatus = 'copied' | 'translated' | 'edited';

export const translationStatuses: readonly TranslationStatus[] = ['copied', 'translated', 'edited'];

/** One stored value of one field, in one branch and locale. */
export interface FieldValue {
  value: string | number | boolean | null;
  link_tracking_parameters?: Record<string, string>;
  translation_status?: TranslationStatus;
}

/** Field values of a component instance: branch key (or `null_branch`) → locale → liquid variable. */
export type FieldValues = Record<string, Record<string, Record<string, FieldValue>>>;

export interface ComponentInstance {
  /** A UUID. */
  id: string;
  name?: string;
  component_id: number;
  conditional_id?: number | null;
  field_values: FieldValues;
  hidden_from_locales?: Record<string, boolean>;
}

/** Subject or preheader: branch key (or `null_branch`) → locale → text. */
export interface BranchedText {
  conditional_id?: number | null;
  branch_content: Record<string, Record<string, string>>;
  /** The translation status of each text, by branch and locale, like `branch_content`; absent = unknown. */
  translation_status?: Record<string, Record<string, TranslationStatus>>;
}

export interface EmailContent {
  subject: BranchedText;
  preheader: BranchedText;
  container_component_instance: ComponentInstance;
  component_instances: ComponentInstance[];
  global_link_tracking_parameters?: Record<string, string>;
}

/** The branch key of content that has no conditional. */
export const nullBranch = 'null_branch';
