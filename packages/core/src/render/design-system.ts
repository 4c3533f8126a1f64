import type { CustomStyle, FieldDefinition } from '../fields/types.ts';

export interface ComponentDefinition {
  id: number;
  name: string;
  label: string;
  container: boolean;
  template: string;
  field_definitions: FieldDefinition[];
  deprecated?: boolean;
  description?: string | null;
  /** The feed whose run fills the fields that name a `feed_field_name`. */
  feed_id?: number | null;
}

export interface DesignSystemDefinition {
  id: number;
  name: string;
  design_tokens: Record<string, unknown>;
  custom_styles: CustomStyle[];
}

export interface FieldOverride {
  liquid_variable: string;
  default_value?: unknown;
  hidden_in_editor?: boolean;
  hidden_from_ai?: boolean;
  label?: string;
}

export interface ComponentOverride {
  component_id: number;
  hidden: boolean;
  field_overrides: FieldOverride[];
}

export interface BrandProfileDefinition {
  id: number;
  name: string;
  design_tokens: Record<string, unknown>;
  custom_styles?: CustomStyle[];
  component_overrides: ComponentOverride[];
}

export type BrandedComponent = ComponentDefinition & { hidden: boolean };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Brand tokens over design-system tokens: objects merge key by key at every depth; anything
 * else (strings, numbers, arrays, null) in the override replaces the base value whole. Neither
 * input is modified.
 */
export function mergeDesignTokens(
  base: Record<string, unknown>,
  override: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeDesignTokens(current, value) : value;
  }
  return merged;
}

/** The design system's custom styles with the brand profile's added, same names replaced. */
export function mergeCustomStyles(
  base: readonly CustomStyle[],
  override: readonly CustomStyle[] | undefined,
): CustomStyle[] {
  const byName = new Map(base.map((style) => [style.name, style]));
  for (const style of override ?? []) byName.set(style.name, style);
  return [...byName.values()];
}

/**
 * Components as a brand sees them: field defaults, labels and editor/AI visibility overridden,
 * and components the brand hides flagged `hidden: true` (kept, so existing emails still know
 * what they are). Field overrides naming no field are ignored.
 */
export function applyBrandProfile(
  components: ComponentDefinition[],
  brandProfile: BrandProfileDefinition | null,
): BrandedComponent[] {
  const overrides = new Map(
    brandProfile?.component_overrides.map((override) => [override.component_id, override]),
  );
  return components.map((component) => {
    const override = overrides.get(component.id);
    if (!override) return { ...component, hidden: false };
    const fieldOverrides = new Map(override.field_overrides.map((field) => [field.liquid_variable, field]));
    return {
      ...component,
      hidden: override.hidden,
      field_definitions: component.field_definitions.map((definition) => {
        const fieldOverride = fieldOverrides.get(definition.liquid_variable);
        if (!fieldOverride) return definition;
        const branded: FieldDefinition = { ...definition };
        if (fieldOverride.default_value !== undefined && fieldOverride.default_value !== null) {
          branded.default_value = fieldOverride.default_value as FieldDefinition['default_value'];
        }
        if (fieldOverride.label !== undefined) branded.label = fieldOverride.label;
        if (fieldOverride.hidden_in_editor !== undefined)
          branded.hidden_in_editor = fieldOverride.hidden_in_editor;
        if (fieldOverride.hidden_from_ai !== undefined) branded.hidden_from_ai = fieldOverride.hidden_from_ai;
        return branded;
      }),
    };
  });
}
