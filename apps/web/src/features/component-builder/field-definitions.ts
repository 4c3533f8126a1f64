import {
  commonFieldKeys,
  type FieldDefinition,
  type FieldType,
  fieldTypeSpecs,
  horizontalAlignments,
  verticalAlignments,
} from '@letterset/core';

/** A field definition in the builder, with a key that survives reordering and renaming. */
export interface DraftField {
  key: string;
  definition: FieldDefinition;
}

/** Problems per field definition index, each keyed by its path inside the definition. */
export type FieldProblems = Record<number, Record<string, string[]>>;

let nextKey = 0;
export function draftKey(): string {
  nextKey += 1;
  return `field-${nextKey}`;
}

export function toDraftFields(definitions: readonly FieldDefinition[]): DraftField[] {
  return definitions.map((definition) => ({ key: draftKey(), definition }));
}

function typeSpecificDefaults(type: FieldType): Partial<FieldDefinition> {
  if (type === 'enum')
    return { options: [{ label: 'Option 1', value: 'option_1' }], default_value: 'option_1' };
  if (type === 'horizontal_align') return { options: [...horizontalAlignments] };
  if (type === 'vertical_align') return { options: [...verticalAlignments] };
  return {};
}

/** A new field of a type, with a label and Liquid variable not yet used in the component. */
export function newFieldDefinition(type: FieldType, existing: readonly FieldDefinition[]): FieldDefinition {
  const spec = fieldTypeSpecs[type];
  const taken = new Set(existing.map((definition) => definition.liquid_variable));
  let number = 1;
  while (taken.has(`${type}_${number}`)) number += 1;
  return {
    type,
    label: `${spec.label} ${number}`,
    liquid_variable: `${type}_${number}`,
    default_value: spec.initialDefaultValue,
    ...typeSpecificDefaults(type),
  };
}

/**
 * The definition as another type: common properties stay, validations and keys the new type does
 * not understand go, and the default becomes the new type's starting value.
 */
export function changeFieldType(definition: FieldDefinition, type: FieldType): FieldDefinition {
  const spec = fieldTypeSpecs[type];
  const kept: Record<string, unknown> = {};
  for (const key of commonFieldKeys) {
    if (key in definition && key !== 'validations') kept[key] = definition[key as keyof FieldDefinition];
  }
  const validations = Object.fromEntries(
    Object.entries(definition.validations ?? {}).filter(([name]) => name in spec.validations),
  );
  return {
    ...(kept as unknown as FieldDefinition),
    type,
    default_value: spec.initialDefaultValue,
    ...(Object.keys(validations).length > 0 ? { validations } : { validations: undefined }),
    ...typeSpecificDefaults(type),
  };
}

/** Drops keys left undefined by editing, so the API gets exactly what the user set. */
export function cleanDefinition(definition: FieldDefinition): FieldDefinition {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(definition)) {
    if (value === undefined) continue;
    if (key === 'validations' && value && Object.keys(value).length === 0) continue;
    clean[key] = value;
  }
  return clean as unknown as FieldDefinition;
}

/** A 422's `field_definitions.N.path` messages, grouped by definition. */
export function fieldProblemsFrom(
  errors: Record<string, string[]>,
  prefix = 'field_definitions.',
): FieldProblems {
  const problems: FieldProblems = {};
  for (const [path, messages] of Object.entries(errors)) {
    if (!path.startsWith(prefix)) continue;
    const [index, ...rest] = path.slice(prefix.length).split('.');
    const position = Number(index);
    if (!Number.isInteger(position)) continue;
    const inner = rest.join('.') || 'base';
    problems[position] = {
      ...problems[position],
      [inner]: [...(problems[position]?.[inner] ?? []), ...messages],
    };
  }
  return problems;
}

/** Problems at a path and under it (`options` also takes `options.1.value`). */
export function problemsUnder(problems: Record<string, string[]> | undefined, path: string): string[] {
  if (!problems) return [];
  return Object.entries(problems).flatMap(([at, messages]) =>
    at === path || at.startsWith(`${path}.`) ? messages : [],
  );
}
