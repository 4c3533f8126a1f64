import type { BranchSelection } from '../content/branches.ts';
import type { EmailContent } from '../content/types.ts';
import { defaultBranchKey } from './conditionals.ts';

/** What listing audiences needs of a conditional: its label, its branches in order, its default branch. */
export interface AudienceConditional {
  id: number;
  label?: string;
  branches: { key: string; label: string }[];
  /** The branch a reader gets without a dynamic content profile; null or absent: the last branch. */
  default_branch_key?: string | null;
}

/** One conditional an email uses, with the audiences (branches) it splits readers into. */
export interface ConditionalAudiences {
  conditionalId: number;
  conditionalLabel: string;
  branches: { key: string; label: string }[];
  /** The branch shown when nobody chose one, as an export without a profile resolves it. */
  defaultBranchKey: string;
}

/** One entry of an Audience switch: a branch of one conditional. */
export interface AudienceOption {
  /** `<conditional id>:<branch key>`: unique over the email, and a string as select inputs need. */
  value: string;
  /** The branch label, prefixed with the conditional's label when the email uses several conditionals. */
  label: string;
  conditionalId: number;
  branchKey: string;
}

/**
 * The conditionals an email's content uses (container, body instances, subject, preheader), in
 * the order they first appear, each with its branches: the audiences a reader can belong to.
 * Conditionals the workspace does not have (deleted) or without branches are left out.
 */
export function audiencesOf(
  content: Partial<EmailContent> | null | undefined,
  conditionals: readonly AudienceConditional[],
): ConditionalAudiences[] {
  const byId = new Map(conditionals.map((conditional) => [conditional.id, conditional]));
  const usedIds = [
    content?.container_component_instance?.conditional_id,
    ...(content?.component_instances ?? []).map((instance) => instance.conditional_id),
    content?.subject?.conditional_id,
    content?.preheader?.conditional_id,
  ];
  const audiences: ConditionalAudiences[] = [];
  const seen = new Set<number>();
  for (const id of usedIds) {
    if (id === null || id === undefined || seen.has(id)) continue;
    seen.add(id);
    const conditional = byId.get(id);
    // The default branch as exports resolve it: `default_branch_key`, else the last branch.
    const defaultKey = conditional && defaultBranchKey(conditional);
    if (!conditional || defaultKey === null || defaultKey === undefined) continue;
    audiences.push({
      conditionalId: conditional.id,
      conditionalLabel: conditional.label?.trim() || `Conditional ${conditional.id}`,
      branches: conditional.branches.map(({ key, label }) => ({ key, label: label.trim() || key })),
      defaultBranchKey: defaultKey,
    });
  }
  return audiences;
}

/** Every conditional at its default branch: what a reader without a profile's syntax gets. */
export function defaultAudienceSelection(audiences: readonly ConditionalAudiences[]): BranchSelection {
  return Object.fromEntries(
    audiences.map((audience) => [String(audience.conditionalId), audience.defaultBranchKey]),
  );
}

/**
 * The branch selection a preview shows: the chosen branches where they are branches of a used
 * conditional, every other used conditional at its default branch.
 */
export function audienceSelection(
  audiences: readonly ConditionalAudiences[],
  chosen: BranchSelection,
): BranchSelection {
  const selection = defaultAudienceSelection(audiences);
  for (const audience of audiences) {
    const key = chosen[String(audience.conditionalId)];
    if (key !== undefined && audience.branches.some((branch) => branch.key === key))
      selection[String(audience.conditionalId)] = key;
  }
  return selection;
}

/** The entries of an Audience switch: every branch of every used conditional, in order. */
export function audienceOptions(audiences: readonly ConditionalAudiences[]): AudienceOption[] {
  const prefixed = audiences.length > 1;
  return audiences.flatMap((audience) =>
    audience.branches.map((branch) => ({
      value: audienceOptionValue(audience.conditionalId, branch.key),
      label: prefixed ? `${audience.conditionalLabel}: ${branch.label}` : branch.label,
      conditionalId: audience.conditionalId,
      branchKey: branch.key,
    })),
  );
}

export function audienceOptionValue(conditionalId: number, branchKey: string): string {
  return `${conditionalId}:${branchKey}`;
}

/**
 * The audience a problem found in one branch concerns, by name: the branch of the conditional
 * the problem names, else of its instance's conditional, else (subject, preheader, or an
 * instance no longer there) of the one used conditional that has that branch key. Null for
 * content outside conditionals or when it is ambiguous.
 */
export function audienceLabelOf(
  content: Partial<EmailContent> | null | undefined,
  audiences: readonly ConditionalAudiences[],
  where: { branch: string | null; component_instance_id: string | null; conditional_id?: number | null },
): string | null {
  const { branch } = where;
  if (branch === null || audiences.length === 0) return null;
  const instance = [content?.container_component_instance, ...(content?.component_instances ?? [])].find(
    (candidate) => candidate !== undefined && candidate.id === where.component_instance_id,
  );
  const conditionalId = where.conditional_id ?? instance?.conditional_id;
  const candidates =
    conditionalId != null
      ? audiences.filter((audience) => audience.conditionalId === conditionalId)
      : audiences.filter((audience) => audience.branches.some((candidate) => candidate.key === branch));
  if (candidates.length !== 1) return null;
  const [audience] = candidates as [ConditionalAudiences];
  const label = audience.branches.find((candidate) => candidate.key === branch)?.label;
  if (label === undefined) return null;
  return audiences.length > 1 ? `${audience.conditionalLabel}: ${label}` : label;
}
