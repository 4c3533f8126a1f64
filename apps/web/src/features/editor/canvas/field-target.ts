import {
  type BranchSelection,
  type ComponentDefinition,
  type ComponentInstance,
  type EmailContent,
  type FieldDefinition,
  type FieldTarget,
  isFieldVisible,
} from '@letterset/core';
import { editedBranch } from '../Inspector.tsx';
import { inPlaceKindOf, shownValue } from './in-place-fields.ts';

/** A field of an instance as the side panel edits it: where its value is stored for the locale and branch shown. */
export interface ResolvedField {
  instance: ComponentInstance;
  definition: FieldDefinition;
  target: FieldTarget;
  /** The value the field shows: stored, else its default. */
  value: string;
}

export interface FieldContext {
  content: EmailContent;
  componentsById: ReadonlyMap<number, ComponentDefinition>;
  conditionals: readonly { id: number; branches: readonly { key: string }[] }[];
  branchSelection: BranchSelection;
  locale: string;
}

export function instanceById(content: EmailContent, instanceId: string): ComponentInstance | null {
  if (content.container_component_instance.id === instanceId) return content.container_component_instance;
  return content.component_instances.find((instance) => instance.id === instanceId) ?? null;
}

/** The branch of an instance the side panel edits (the one the preview shows), as the Inspector picks it. */
function branchShown(context: FieldContext, instance: ComponentInstance): string {
  const conditional = context.conditionals.find((candidate) => candidate.id === instance.conditional_id);
  const branchKeys = conditional?.branches.map((branch) => branch.key) ?? Object.keys(instance.field_values);
  return editedBranch(instance, branchKeys, context.branchSelection);
}

/** The values an instance shows in a branch and locale, defaults filled in (what `visible_if` rules read). */
function valuesShown(
  instance: ComponentInstance,
  component: ComponentDefinition,
  branch: string,
  locale: string,
): Record<string, unknown> {
  const stored = instance.field_values[branch]?.[locale] ?? {};
  return Object.fromEntries(
    component.field_definitions.map((definition) => [
      definition.liquid_variable,
      stored[definition.liquid_variable]?.value ?? definition.default_value,
    ]),
  );
}

/**
 * An instance's field in the locale shown and the branch the side panel edits, so that an edit in
 * the preview lands exactly where the same edit in the side panel would. Null when the instance,
 * its component or the field is gone.
 */
export function resolveField(
  context: FieldContext,
  instanceId: string,
  variable: string,
): ResolvedField | null {
  const instance = instanceById(context.content, instanceId);
  const component = instance && context.componentsById.get(instance.component_id);
  const definition = component?.field_definitions.find((candidate) => candidate.liquid_variable === variable);
  if (!instance || !definition) return null;
  const branch = branchShown(context, instance);
  const stored = instance.field_values[branch]?.[context.locale]?.[variable]?.value;
  return {
    instance,
    definition,
    target: { instanceId, branch, locale: context.locale, variable },
    value: shownValue(definition, stored),
  };
}

/**
 * The fields of an instance the side panel shows that the preview cannot edit in place (every
 * one but the text and rich-text fields named in `editableInPlace`): the instance's toolbar opens
 * them in the side panel.
 */
export function fieldsOutsideThePreview(
  context: FieldContext,
  instanceId: string,
  editableInPlace: ReadonlySet<string>,
): FieldDefinition[] {
  const instance = instanceById(context.content, instanceId);
  const component = instance && context.componentsById.get(instance.component_id);
  if (!instance || !component) return [];
  const values = valuesShown(instance, component, branchShown(context, instance), context.locale);
  return component.field_definitions.filter(
    (definition) =>
      !definition.hidden_in_editor &&
      isFieldVisible(definition, values) &&
      !(inPlaceKindOf(definition) && editableInPlace.has(definition.liquid_variable)),
  );
}
