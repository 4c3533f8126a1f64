/** One stored value of one field, in one branch and locale. */
export interface FieldValue {
  value: string | number | boolean | null;
  link_tracking_parameters?: Record<string, string>;
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
