import type { components } from '@letterset/api-client';

export type BrandProfile = components['schemas']['BrandProfile'];
type ComponentOverride = BrandProfile['component_overrides'][number];
type FieldOverride = ComponentOverride['field_overrides'][number];

export interface FieldOverrideDraft {
  label?: string;
  default_value?: string | number | boolean;
  hidden_in_editor?: boolean;
  hidden_from_ai?: boolean;
}

/** Component id → whether the brand hides it and its field overrides by Liquid variable. */
export type OverridesDraft = Record<number, { hidden: boolean; fields: Record<string, FieldOverrideDraft> }>;

export function overridesDraft(overrides: BrandProfile['component_overrides']): OverridesDraft {
  const draft: OverridesDraft = {};
  for (const override of overrides) {
    const fields: Record<string, FieldOverrideDraft> = {};
    for (const { liquid_variable, ...rest } of override.field_overrides) fields[liquid_variable] = rest;
    draft[override.component_id] = { hidden: override.hidden, fields };
  }
  return draft;
}

/** Where each sent field override came from, to put the API's messages back on its inputs. */
export type OverridePositions = Record<string, string>;

/** The request's component_overrides: only components and fields the brand actually changes. */
export function overridesBody(draft: OverridesDraft): {
  overrides: ComponentOverride[];
  positions: OverridePositions;
} {
  const overrides: ComponentOverride[] = [];
  const positions: OverridePositions = {};
  for (const [componentId, { hidden, fields }] of Object.entries(draft)) {
    const fieldOverrides: FieldOverride[] = [];
    for (const [liquid_variable, override] of Object.entries(fields)) {
      const set = Object.fromEntries(
        Object.entries(override).filter(([, value]) => value !== undefined && value !== ''),
      );
      if (Object.keys(set).length === 0) continue;
      positions[`component_overrides.${overrides.length}.field_overrides.${fieldOverrides.length}`] =
        `${componentId}:${liquid_variable}`;
      fieldOverrides.push({ liquid_variable, ...set });
    }
    if (!hidden && fieldOverrides.length === 0) continue;
    positions[`component_overrides.${overrides.length}`] = `${componentId}`;
    overrides.push({ component_id: Number(componentId), hidden, field_overrides: fieldOverrides });
  }
  return { overrides, positions };
}

/**
 * A 422's component_overrides messages keyed by `componentId:variable` (or `componentId`), the
 * deepest sent position that contains the path; other paths are returned as they are.
 */
export function overrideProblems(
  errors: Record<string, string[]>,
  positions: OverridePositions,
): { byTarget: Record<string, string[]>; rest: string[] } {
  const byTarget: Record<string, string[]> = {};
  const rest: string[] = [];
  const known = Object.keys(positions).sort((a, b) => b.length - a.length);
  for (const [path, messages] of Object.entries(errors)) {
    const position = known.find((prefix) => path === prefix || path.startsWith(`${prefix}.`));
    const target = position === undefined ? undefined : positions[position];
    if (target === undefined || position === undefined) {
      rest.push(`${path} ${messages.join('; ')}`);
      continue;
    }
    const detail = path.slice(position.length + 1);
    byTarget[target] = [
      ...(byTarget[target] ?? []),
      ...messages.map((message) => (detail ? `${detail} ${message}` : message)),
    ];
  }
  return { byTarget, rest };
}

/**
 * Where a refused save's messages go: those on component overrides onto the component or field
 * they concern (`byTarget`), everything the name, token and custom style inputs do not show listed in `rest`
 * (the answer's own message when it names no field).
 */
export function refusedSaveProblems(
  fieldErrors: Record<string, string[]>,
  message: string,
  positions: OverridePositions,
): { byTarget: Record<string, string[]>; rest: string[] } {
  const onOverrides = Object.entries(fieldErrors).filter(([path]) => path.startsWith('component_overrides'));
  const placed = overrideProblems(Object.fromEntries(onOverrides), positions);
  const elsewhere = Object.entries(fieldErrors)
    .filter(
      ([path]) =>
        !['name', 'design_tokens', 'custom_styles'].includes(path.split('.')[0] ?? '') &&
        !path.startsWith('component_overrides'),
    )
    .map(([path, messages]) => `${path} ${messages.join('; ')}`);
  return {
    byTarget: placed.byTarget,
    rest: [...placed.rest, ...elsewhere, ...(Object.keys(fieldErrors).length === 0 ? [message] : [])],
  };
}
