import { branchForAudience, type ConditionalDefinition } from '../dynamic-content/conditionals.ts';
import { type BranchedText, type ComponentInstance, nullBranch } from './types.ts';

/** Which branch to show for each conditional, by conditional id. */
export type BranchSelection = Record<string, string>;

/** The conditional of an id, when the caller knows the workspace's conditionals. */
export type ConditionalLookup = (
  conditionalId: number,
) => Pick<ConditionalDefinition, 'id' | 'branches' | 'default_branch_key'> | undefined;

/**
 * The branch a piece of content shows in a single rendering (preview, render API, an export
 * without a dynamic content profile): `null_branch` without a conditional, else the selected
 * branch, else the conditional's default branch (`branchForAudience`). When the conditional is
 * not known (no `conditionalOf`), the selected branch if the content holds it, else the first
 * branch the content holds.
 */
export function selectBranch(
  conditionalId: number | null | undefined,
  branchKeys: readonly string[],
  selection: BranchSelection | undefined,
  conditionalOf?: ConditionalLookup,
): string | null {
  if (conditionalId === null || conditionalId === undefined) return nullBranch;
  const conditional = conditionalOf?.(conditionalId);
  if (conditional) return branchForAudience(conditional, selection);
  const selected = selection?.[String(conditionalId)];
  if (selected !== undefined && branchKeys.includes(selected)) return selected;
  return branchKeys[0] ?? null;
}

/** An instance's raw values for one locale, from the branch `selectBranch` picks. */
export function instanceValuesFor(
  instance: ComponentInstance,
  locale: string,
  selection?: BranchSelection,
  conditionalOf?: ConditionalLookup,
): Record<string, unknown> {
  const branch = selectBranch(
    instance.conditional_id,
    Object.keys(instance.field_values ?? {}),
    selection,
    conditionalOf,
  );
  return branch === null ? {} : branchValuesFor(instance, branch, locale);
}

/** An instance's raw values of one branch and locale (empty when it stores none). */
export function branchValuesFor(
  instance: ComponentInstance,
  branch: string,
  locale: string,
): Record<string, unknown> {
  const fields = instance.field_values?.[branch]?.[locale];
  const values: Record<string, unknown> = {};
  for (const [variable, fieldValue] of Object.entries(fields ?? {})) values[variable] = fieldValue?.value;
  return values;
}

/** Subject or preheader text for one locale; empty when absent. */
export function branchedTextFor(
  text: BranchedText | undefined,
  locale: string,
  selection?: BranchSelection,
  conditionalOf?: ConditionalLookup,
): string {
  if (!text) return '';
  const branch = selectBranch(
    text.conditional_id,
    Object.keys(text.branch_content ?? {}),
    selection,
    conditionalOf,
  );
  return (branch === null ? undefined : text.branch_content?.[branch]?.[locale]) ?? '';
}
