import { type ConditionalDefinition, defaultBranchKey } from '../dynamic-content/conditionals.ts';
import type { PreSendProblem } from './pre-send-problems.ts';

/**
 * Checks per audience: the readers of one branch of a conditional see that branch and every
 * other conditional at its default branch. The pre-send checks render the email once per
 * audience (and locale), so a problem in one branch's content is found, and told with that branch.
 */

/** Which readers a render shows: one conditional at one of its branches, the others at their default. */
export interface AudienceBranch {
  conditional_id: number;
  branch: string;
}

export interface Audience {
  /**
   * Null: every conditional at its default branch (what an export without a profile holds, and
   * the readers of each conditional's default branch). Otherwise one conditional at another branch.
   */
  branch: AudienceBranch | null;
  /** The branch selection that renders it (conditional id → branch key). */
  selection: Record<string, string>;
}

/**
 * The most audiences rendered per locale: the default audience, then each other branch of each
 * conditional the email uses, in the order of the conditionals' ids and of their branches. An
 * email rarely has more than a few; past this bound the remaining branches are told as not
 * checked (a warning) rather than rendered, so one check costs at most this many renders per
 * locale (one more for an export for a profile: the compiled render).
 */
export const maxAudiencesPerLocale = 20;

/**
 * The audiences whose renders the pre-send checks read: the default one first, then one per
 * branch other than the default of each conditional used (ids in `usedConditionalIds`), at most
 * `maxAudiencesPerLocale`; `unchecked` lists the branches past the bound.
 */
export function audiencesToCheck(
  conditionals: readonly ConditionalDefinition[],
  usedConditionalIds: readonly number[],
): { audiences: Audience[]; unchecked: AudienceBranch[] } {
  const audiences: Audience[] = [{ branch: null, selection: {} }];
  const unchecked: AudienceBranch[] = [];
  const used = new Set(usedConditionalIds);
  const ordered = conditionals.filter((conditional) => used.has(conditional.id)).sort((a, b) => a.id - b.id);
  for (const conditional of ordered) {
    const fallback = defaultBranchKey(conditional);
    for (const { key } of conditional.branches) {
      if (key === fallback) continue;
      const branch = { conditional_id: conditional.id, branch: key };
      if (audiences.length < maxAudiencesPerLocale)
        audiences.push({ branch, selection: { [String(conditional.id)]: key } });
      else unchecked.push(branch);
    }
  }
  return { audiences, unchecked };
}

/** The problems one render of one locale showed. */
export interface RenderProblems {
  /**
   * The audience the render shows (see `Audience.branch`); undefined for a render that holds
   * every audience at once (an export for a profile, every branch compiled in its syntax).
   */
  audience: AudienceBranch | null | undefined;
  problems: readonly PreSendProblem[];
}

function identity(problem: PreSendProblem): string {
  return [
    problem.code,
    problem.severity,
    problem.locale,
    problem.component_instance_id,
    problem.message,
  ].join('\u0000');
}

/**
 * The problems of one locale's renders, each told once, with the branch it was found in:
 *  - found in the default audience but missing from another branch's audience of a conditional:
 *    it is in that conditional's default branch;
 *  - missing from the default audience but found in a branch's audience: it is in that branch;
 *  - found in every audience: it is the email's, whatever the branch (`branch` null).
 * A problem of a render holding every audience is kept only when no audience render shows it
 * (e.g. the compiled HTML is too large).
 */
export function problemsPerAudience(
  renders: readonly RenderProblems[],
  conditionals: readonly ConditionalDefinition[],
): PreSendProblem[] {
  const base = renders.find((render) => render.audience === null);
  const variants = renders.filter(
    (render): render is RenderProblems & { audience: AudienceBranch } => !!render.audience,
  );
  const whole = renders.filter((render) => render.audience === undefined);
  const defaults = new Map(
    conditionals.map((conditional) => [conditional.id, defaultBranchKey(conditional)]),
  );
  const keysOf = (render: RenderProblems) => new Set(render.problems.map(identity));
  const variantKeys = variants.map(keysOf);

  const result: PreSendProblem[] = [];
  const told = new Set<string>();
  const tell = (problem: PreSendProblem, where: AudienceBranch | null) => {
    const key = `${identity(problem)}\u0000${where?.conditional_id ?? ''}\u0000${where?.branch ?? ''}`;
    if (told.has(key)) return;
    told.add(key);
    result.push(
      where
        ? { ...problem, branch: where.branch, conditional_id: where.conditional_id }
        : { ...problem, branch: problem.branch ?? null },
    );
  };

  const baseKeys = base ? keysOf(base) : new Set<string>();
  for (const problem of base?.problems ?? []) {
    const key = identity(problem);
    const missingFrom = new Set<number>();
    variants.forEach((variant, index) => {
      if (!variantKeys[index]?.has(key)) missingFrom.add(variant.audience.conditional_id);
    });
    if (missingFrom.size === 0) {
      tell(problem, null);
      continue;
    }
    for (const conditionalId of [...missingFrom].sort((a, b) => a - b)) {
      const branch = defaults.get(conditionalId);
      tell(problem, branch ? { conditional_id: conditionalId, branch } : null);
    }
  }
  variants.forEach((variant) => {
    for (const problem of variant.problems)
      if (!baseKeys.has(identity(problem))) tell(problem, variant.audience);
  });

  const seen = new Set([...baseKeys, ...variantKeys.flatMap((keys) => [...keys])]);
  for (const render of whole)
    for (const problem of render.problems) {
      if (seen.has(identity(problem))) continue;
      seen.add(identity(problem));
      tell(problem, null);
    }
  return result;
}
