import type { BranchedText, ComponentInstance, EmailContent } from '../content/types.ts';
import type { ConditionalSyntax } from './presets.ts';

/** A conditional as the render needs it: its branches in order and its syntaxes. */
export interface ConditionalDefinition {
  id: number;
  label?: string;
  branches: { key: string; label: string }[];
  default_syntax: ConditionalSyntax;
  /** Per dynamic content profile id; profiles without an entry use `default_syntax`. */
  dynamic_content_profile_syntaxes?: Record<string, ConditionalSyntax>;
  can_be_used_in_subject_and_preheader?: boolean;
}

/** The export profile's syntax if the conditional has one, else the default syntax. */
export function conditionalSyntaxFor(
  conditional: ConditionalDefinition,
  profileId: string | null | undefined,
): ConditionalSyntax {
  if (profileId !== null && profileId !== undefined) {
    const own = conditional.dynamic_content_profile_syntaxes?.[profileId];
    if (own) return own;
  }
  return conditional.default_syntax;
}

/**
 * The compile rule: for each branch in order, its opening syntax then its rendered content,
 * then the closing syntax once.
 */
export function compileConditional(
  conditional: ConditionalDefinition,
  profileId: string | null | undefined,
  renderBranch: (branchKey: string) => string,
): string {
  const syntax = conditionalSyntaxFor(conditional, profileId);
  let output = '';
  for (const branch of conditional.branches) {
    output += (syntax.branch_values[branch.key] ?? '') + renderBranch(branch.key);
  }
  return output + syntax.closing;
}

/** Subject or preheader text of every branch, wrapped in the conditional's syntax. */
export function compileBranchedText(
  text: BranchedText,
  conditional: ConditionalDefinition,
  profileId: string | null | undefined,
  locale: string,
): string {
  return compileConditional(conditional, profileId, (key) => text.branch_content?.[key]?.[locale] ?? '');
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
