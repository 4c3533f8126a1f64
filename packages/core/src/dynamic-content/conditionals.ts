import type { BranchedText, ComponentInstance, EmailContent } from '../content/types.ts';
import type { ConditionalSyntax } from './presets.ts';

/** A conditional as the render needs it: its branches in order and its syntaxes. */
export interface ConditionalDefinition {
  id: number;
  label?: string;
  branches: { key: string; label: string }[];
  default_syntax: ConditionalSyntax;
  /** Per dynamic content profile id; profiles without an entry use `default_syntax` (when it is not empty). */
  dynamic_content_profile_syntaxes?: Record<string, ConditionalSyntax>;
  can_be_used_in_subject_and_preheader?: boolean;
  /**
   * The branch shown to every reader of an export without a dynamic content profile, and in a
   * preview where no branch is selected. Null or absent: the last branch (the "everyone else"
   * branch by convention).
   */
  default_branch_key?: string | null;
}

/** The branch an export without a profile shows: `default_branch_key`, else the last branch. */
export function defaultBranchKey(
  conditional: Pick<ConditionalDefinition, 'branches' | 'default_branch_key'>,
) {
  const keys = conditional.branches.map((branch) => branch.key);
  const chosen = conditional.default_branch_key;
  if (chosen !== null && chosen !== undefined && keys.includes(chosen)) return chosen;
  return keys.at(-1) ?? null;
}

/**
 * The branch one reader sees: the selected branch when it is one of the conditional's, else
 * its default branch. What previews show, and what an export without a profile holds.
 */
export function branchForAudience(
  conditional: Pick<ConditionalDefinition, 'id' | 'branches' | 'default_branch_key'>,
  selection: Readonly<Record<string, string>> | undefined,
): string | null {
  const selected = selection?.[String(conditional.id)];
  if (selected !== undefined && conditional.branches.some((branch) => branch.key === selected))
    return selected;
  return defaultBranchKey(conditional);
}

/** A syntax whose openings and closing are all blank: compiling with it would stack every branch. */
export function isEmptySyntax(syntax: ConditionalSyntax): boolean {
  return (
    syntax.closing.trim() === '' && Object.values(syntax.branch_values).every((value) => value.trim() === '')
  );
}

/**
 * The syntax an export for a dynamic content profile wraps the branches in: the profile's own
 * syntax, else the default syntax. Null when the one that applies is empty: such an export cannot
 * tell its readers apart, and must not be made (see `missingConditionalSyntaxProblems`).
 */
export function conditionalSyntaxFor(
  conditional: ConditionalDefinition,
  profileId: string,
): ConditionalSyntax | null {
  const syntax = conditional.dynamic_content_profile_syntaxes?.[profileId] ?? conditional.default_syntax;
  return isEmptySyntax(syntax) ? null : syntax;
}

/**
 * What an export holds for one conditional, defined once for every part of the email:
 *  - without a profile (`profileId` null): one branch only, with no syntax at all: the branch
 *    `selection` names for the conditional, else its default branch (`defaultBranchKey`);
 *  - for a profile: for each branch in order, its opening syntax then its rendered content, then
 *    the closing syntax once, in `conditionalSyntaxFor` that profile. Null when the conditional
 *    has no usable syntax for the profile: the caller reports it, never stacks the branches.
 */
export function compileConditional(
  conditional: ConditionalDefinition,
  profileId: string | null | undefined,
  renderBranch: (branchKey: string) => string,
  selection?: Readonly<Record<string, string>>,
): string | null {
  if (profileId === null || profileId === undefined) {
    const key = branchForAudience(conditional, selection);
    return key === null ? '' : renderBranch(key);
  }
  const syntax = conditionalSyntaxFor(conditional, profileId);
  if (!syntax) return null;
  let output = '';
  for (const branch of conditional.branches) {
    output += (syntax.branch_values[branch.key] ?? '') + renderBranch(branch.key);
  }
  return output + syntax.closing;
}

/** Subject or preheader text as an export holds it (see `compileConditional`). */
export function compileBranchedText(
  text: BranchedText,
  conditional: ConditionalDefinition,
  profileId: string | null | undefined,
  locale: string,
  selection?: Readonly<Record<string, string>>,
): string | null {
  return compileConditional(
    conditional,
    profileId,
    (key) => text.branch_content?.[key]?.[locale] ?? '',
    selection,
  );
}

/** Whether a branch of an instance holds any stored value (in any locale). */
function instanceBranchHasContent(instance: ComponentInstance, key: string): boolean {
  return Object.values(instance.field_values?.[key] ?? {}).some(
    (fields) => Object.keys(fields ?? {}).length > 0,
  );
}

function textBranchHasContent(text: BranchedText | undefined, key: string): boolean {
  return Object.values(text?.branch_content?.[key] ?? {}).some((value) => value !== '');
}

/** Where content uses a conditional: instance ids, and `subject` / `preheader`. */
export interface ConditionalUsage {
  /** Branch keys that hold content anywhere the conditional is used. */
  branchKeysWithContent: Set<string>;
  instanceIds: string[];
  inSubjectOrPreheader: boolean;
}

/** How one email's content uses a conditional (nothing when it does not). */
export function conditionalUsage(content: Partial<EmailContent> | null | undefined, conditionalId: number) {
  const usage: ConditionalUsage = {
    branchKeysWithContent: new Set(),
    instanceIds: [],
    inSubjectOrPreheader: false,
  };
  const instances = [content?.container_component_instance, ...(content?.component_instances ?? [])];
  for (const instance of instances) {
    if (!instance || instance.conditional_id !== conditionalId) continue;
    usage.instanceIds.push(instance.id);
    for (const key of Object.keys(instance.field_values ?? {}))
      if (instanceBranchHasContent(instance, key)) usage.branchKeysWithContent.add(key);
  }
  for (const text of [content?.subject, content?.preheader]) {
    if (!text || text.conditional_id !== conditionalId) continue;
    usage.inSubjectOrPreheader = true;
    for (const key of Object.keys(text.branch_content ?? {}))
      if (textBranchHasContent(text, key)) usage.branchKeysWithContent.add(key);
  }
  return usage;
}

/** Whether content uses the conditional at all. */
export function usesConditional(usage: ConditionalUsage): boolean {
  return usage.instanceIds.length > 0 || usage.inSubjectOrPreheader;
}

/**
 * How content misuses conditionals, by field path under `root`: an unknown conditional id, a
 * branch key the conditional does not have, a conditional in the subject or preheader that is
 * not allowed there. Empty when the content is fine (what an email save or a render checks).
 */
export function conditionalReferenceProblems(
  content: Partial<EmailContent>,
  conditionals: readonly ConditionalDefinition[],
  root = 'content',
): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const byId = new Map(conditionals.map((conditional) => [conditional.id, conditional]));
  const check = (path: string, conditionalId: number | null | undefined, keys: string[], inText: boolean) => {
    if (conditionalId === null || conditionalId === undefined) return;
    const conditional = byId.get(conditionalId);
    if (!conditional) {
      problems[`${path}.conditional_id`] = ['is not a conditional of this workspace'];
      return;
    }
    if (inText && conditional.can_be_used_in_subject_and_preheader !== true)
      problems[`${path}.conditional_id`] = ['cannot be used in the subject and preheader'];
    const known = new Set(conditional.branches.map((branch) => branch.key));
    const unknown = keys.filter((key) => !known.has(key));
    if (unknown.length > 0)
      problems[path] = [`holds branch keys the conditional does not have: ${unknown.join(', ')}`];
  };
  for (const name of ['subject', 'preheader'] as const) {
    const text = content[name];
    check(`${root}.${name}`, text?.conditional_id, Object.keys(text?.branch_content ?? {}), true);
  }
  check(
    `${root}.container_component_instance`,
    content.container_component_instance?.conditional_id,
    Object.keys(content.container_component_instance?.field_values ?? {}),
    false,
  );
  content.component_instances?.forEach((instance, index) => {
    check(
      `${root}.component_instances.${index}`,
      instance.conditional_id,
      Object.keys(instance.field_values ?? {}),
      false,
    );
  });
  return problems;
}
