import { type BranchedText, type ComponentInstance, nullBranch } from './types.ts';

/** Which branch to show for each conditional, by conditional id. */
export type BranchSelection = Record<string, string>;

/**
 * The branch a piece of content shows in a single rendering (preview, render API): `null_branch`
 * without a conditional, else the selected branch, else the first branch that has content.
 *
 * This is the seam for dynamic content: compiling every branch into the sending platform's
 * conditional syntax (per dynamic content profile) replaces this choice at export time.
 */
export function selectBranch(
  conditionalId: number | null | undefined,
  branchKeys: readonly string[],
  selection: BranchSelection | undefined,
): string | null {
  if (conditionalId === null || conditionalId === undefined) return nullBranch;
  const selected = selection?.[String(conditionalId)];
  if (selected !== undefined && branchKeys.includes(selected)) return selected;
  return branchKeys[0] ?? null;
}

/** An instance's raw values for one locale, from the branch `selectBranch` picks. */
export function instanceValuesFor(
  instance: ComponentInstance,
  locale: string,
  selection?: BranchSelection,
): Record<string, unknown> {
  const branch = selectBranch(instance.conditional_id, Object.keys(instance.field_values ?? {}), selection);
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
): string {
  if (!text) return '';
  const branch = selectBranch(text.conditional_id, Object.keys(text.branch_content ?? {}), selection);
  return (branch === null ? undefined : text.branch_content?.[branch]?.[locale]) ?? '';
}
