import { nullBranch } from '../content/types.ts';
import type { ConditionalChoice } from './commands.ts';
import { invalid } from './document.ts';

/**
 * Content keyed by branch (an instance's field values, the subject's or preheader's text) as it
 * should be once a conditional is attached, detached or swapped. No branch the user sees starts
 * blank, and the only content dropped is content no branch can show any more:
 *
 * - Attach (no conditional → one): the `null_branch` content is copied into **every** branch, so
 *   each variant starts as what the email showed and the user edits only what differs.
 * - Detach (a conditional → none): the **first** branch's content becomes `null_branch`; the
 *   other branches are dropped (undo brings them back). "First" is the first of `branchKeys`
 *   that has content, so the editor can pass the conditional's own order; without it, the first
 *   stored branch, which is also the branch a preview shows by default.
 * - Swap (one conditional → another, or new branch keys): a branch keeps content stored under
 *   the same key; a new key starts as a copy of the first stored branch. Keys the new
 *   conditional does not have are dropped.
 *
 * Returns `byBranch` itself when nothing changes.
 */
export function rebranch<T>(
  byBranch: Record<string, T>,
  currentConditionalId: number | null | undefined,
  choice: ConditionalChoice,
): Record<string, T> {
  const hadConditional = currentConditionalId !== null && currentConditionalId !== undefined;
  if (choice.conditionalId === null) {
    if (!hadConditional) return byBranch;
    const kept = firstBranchContent(byBranch, choice.branchKeys);
    return kept === undefined ? {} : { [nullBranch]: kept };
  }
  requireBranchKeys(choice.branchKeys);
  if (currentConditionalId === choice.conditionalId && sameKeys(byBranch, choice.branchKeys)) return byBranch;
  const startingContent = hadConditional ? firstBranchContent(byBranch, []) : byBranch[nullBranch];
  const result: Record<string, T> = {};
  for (const key of choice.branchKeys) {
    const content = (hadConditional ? byBranch[key] : undefined) ?? startingContent;
    if (content !== undefined) result[key] = content;
  }
  return result;
}

function firstBranchContent<T>(
  byBranch: Record<string, T>,
  preferredOrder: readonly string[],
): T | undefined {
  for (const key of preferredOrder) {
    if (byBranch[key] !== undefined) return byBranch[key];
  }
  return Object.values(byBranch)[0];
}

function requireBranchKeys(branchKeys: readonly string[]): void {
  if (branchKeys.length === 0) invalid('A conditional needs at least one branch key.');
  if (new Set(branchKeys).size !== branchKeys.length) invalid('Branch keys must be unique.');
  if (branchKeys.includes(nullBranch)) invalid(`${nullBranch} is not a branch key of a conditional.`);
}

function sameKeys(byBranch: Record<string, unknown>, branchKeys: readonly string[]): boolean {
  const stored = Object.keys(byBranch);
  return stored.length === branchKeys.length && branchKeys.every((key) => key in byBranch);
}
