import {
  type ConditionalDefinition,
  type ConditionalSyntax,
  compilePickerState,
  conditionalUsage,
  type EmailContent,
  isTemplateEnginePreset,
  type PickerState,
  pickerStateProblems,
} from '@letterset/core';
import { eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { conditionals, emails, type StoredProfileSyntax } from '../../db/schema.ts';
import {
  deleteWorkspaceRecordUnlessUsed,
  findWorkspaceRecord,
  pageOfWorkspaceRecords,
  workspaceEmailsWhere,
} from '../../db/workspace-records.ts';
import { ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import {
  type DynamicContentProfileRow,
  workspaceProfiles,
} from '../dynamic-content-profiles/dynamic-content-profile-records.ts';
import type { Conditional, CreateConditionalBody, UpdateConditionalBody } from './conditionals.schemas.ts';

type ConditionalRow = typeof conditionals.$inferSelect;
type Profiles = Map<string, DynamicContentProfileRow>;

function isPicker(
  syntax: StoredProfileSyntax,
): syntax is { uses_ui_picker: true; ui_picker_state: PickerState } {
  return 'uses_ui_picker' in syntax;
}

/** A stored per-profile syntax as `{closing, branch_values}`; picker states compile with the profile's preset. */
function compiledSyntax(
  row: Pick<ConditionalRow, 'branches'>,
  profile: DynamicContentProfileRow | undefined,
  stored: StoredProfileSyntax,
): ConditionalSyntax | null {
  if (!isPicker(stored)) return stored;
  const preset = profile?.templateEnginePreset;
  if (!isTemplateEnginePreset(preset)) return null;
  const keys = row.branches.map((branch) => branch.key);
  if (Object.keys(pickerStateProblems(keys, stored.ui_picker_state)).length > 0) return null;
  return compilePickerState(preset, keys, stored.ui_picker_state);
}

function toResponse(row: ConditionalRow, profiles: Profiles): Static<typeof Conditional> {
  const syntaxes: Static<typeof Conditional>['dynamic_content_profile_syntaxes'] = {};
  for (const [profileId, stored] of Object.entries(row.profileSyntaxes)) {
    const compiled = compiledSyntax(row, profiles.get(profileId), stored);
    if (!compiled) continue;
    syntaxes[profileId] = isPicker(stored)
      ? { ...compiled, uses_ui_picker: true, ui_picker_state: stored.ui_picker_state }
      : { ...compiled, uses_ui_picker: false };
  }
  return {
    id: row.id,
    label: row.label,
    branches: row.branches,
    default_syntax: row.defaultSyntax,
    dynamic_content_profile_syntaxes: syntaxes,
    can_be_used_in_subject_and_preheader: row.canBeUsedInSubjectAndPreheader,
    default_branch_key: row.defaultBranchKey,
    organization_id: row.organizationId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The conditional as the render needs it, per-profile syntaxes compiled. */
export function conditionalDefinition(row: ConditionalRow, profiles: Profiles): ConditionalDefinition {
  const {
    dynamic_content_profile_syntaxes,
    branches,
    default_syntax,
    can_be_used_in_subject_and_preheader,
    default_branch_key,
  } = toResponse(row, profiles);
  const syntaxes: Record<string, ConditionalSyntax> = {};
  for (const [id, syntax] of Object.entries(dynamic_content_profile_syntaxes))
    syntaxes[id] = { closing: syntax.closing, branch_values: syntax.branch_values };
  return {
    id: row.id,
    label: row.label,
    branches,
    default_syntax,
    dynamic_content_profile_syntaxes: syntaxes,
    can_be_used_in_subject_and_preheader,
    default_branch_key,
  };
}

export async function listConditionals(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  page: PageRequest,
) {
  const [{ rows, total }, profiles] = await Promise.all([
    pageOfWorkspaceRecords(services, conditionals, workspaceId, page),
    workspaceProfiles(services, workspaceId),
  ]);
  return listBody(
    rows.map((row) => toResponse(row, profiles)),
    total,
    page,
  );
}

export async function getConditional(services: Pick<Services, 'database'>, workspaceId: number, id: number) {
  const [row, profiles] = await Promise.all([
    findWorkspaceRecord(services, conditionals, workspaceId, id),
    workspaceProfiles(services, workspaceId),
  ]);
  return toResponse(row, profiles);
}

type Problems = Record<string, string[]>;

function add(problems: Problems, field: string, message: string) {
  problems[field] = [...(problems[field] ?? []), message];
}

/** One opening per branch key, and no opening for keys that are not branches. */
function syntaxProblems(
  keys: readonly string[],
  syntax: ConditionalSyntax,
  field: string,
  problems: Problems,
) {
  for (const key of keys)
    if (!(key in syntax.branch_values))
      add(problems, `${field}.branch_values.${key}`, 'is required: every branch needs its opening syntax');
  for (const key of Object.keys(syntax.branch_values))
    if (!keys.includes(key))
      add(problems, `${field}.branch_values.${key}`, 'is not a branch key of this conditional');
}

interface Candidate {
  branches: { key: string; label: string }[];
  defaultSyntax: ConditionalSyntax;
  profileSyntaxes: Record<string, StoredProfileSyntax>;
  defaultBranchKey: string | null;
}

function conditionalProblems(candidate: Candidate, profiles: Profiles, defaultField: string): Problems {
  const problems: Problems = {};
  const keys = candidate.branches.map((branch) => branch.key);
  candidate.branches.forEach((branch, index) => {
    if (keys.indexOf(branch.key) !== index)
      add(problems, `branches.${index}.key`, 'is already the key of another branch');
  });
  syntaxProblems(keys, candidate.defaultSyntax, defaultField, problems);
  // Also when the branches change: a default branch whose key is gone is refused, not dropped.
  if (candidate.defaultBranchKey !== null && !keys.includes(candidate.defaultBranchKey))
    add(
      problems,
      'default_branch_key',
      `is not a branch key of this conditional (its keys: ${keys.join(', ')}); use null for the last branch`,
    );
  for (const [profileId, stored] of Object.entries(candidate.profileSyntaxes)) {
    const field = `dynamic_content_profile_values.${profileId}`;
    const profile = profiles.get(profileId);
    if (!profile) {
      add(problems, field, 'is not a dynamic content profile of this workspace');
      continue;
    }
    if (!isPicker(stored)) {
      syntaxProblems(keys, stored, field, problems);
      continue;
    }
    if (!isTemplateEnginePreset(profile.templateEnginePreset)) {
      add(problems, `${field}.uses_ui_picker`, 'needs a profile with a template engine preset');
      continue;
    }
    for (const [path, messages] of Object.entries(pickerStateProblems(keys, stored.ui_picker_state)))
      problems[`${field}.ui_picker_state.${path}`] = messages;
  }
  return problems;
}

/** Emails whose content uses the conditional anywhere (an instance, the subject or the preheader). */
function usesConditionalCondition(id: number) {
  return sql`jsonb_path_exists(${emails.content}, '$.** ? (@.conditional_id == $id)', jsonb_build_object('id', ${id}::int))`;
}

/**
 * Changes that would lose email content are refused, naming the emails: removing (or renaming)
 * a branch key that holds content, and disallowing the subject and preheader while they use it.
 */
async function checkEmailsKeepTheirContent(
  services: Pick<Services, 'database'>,
  row: ConditionalRow,
  candidate: Candidate & { inSubject: boolean },
) {
  const keys = new Set(candidate.branches.map((branch) => branch.key));
  const removed = row.branches.map((branch) => branch.key).filter((key) => !keys.has(key));
  const disallowsSubject = row.canBeUsedInSubjectAndPreheader && !candidate.inSubject;
  if (removed.length === 0 && !disallowsSubject) return;
  const problems: Problems = {};
  const names = { branches: [] as string[], subject: [] as string[] };
  for (const email of await workspaceEmailsWhere(
    services,
    row.workspaceId,
    usesConditionalCondition(row.id),
  )) {
    const usage = conditionalUsage(email.content as Partial<EmailContent>, row.id);
    if (removed.some((key) => usage.branchKeysWithContent.has(key))) names.branches.push(email.name);
    if (disallowsSubject && usage.inSubjectOrPreheader) names.subject.push(email.name);
  }
  const quoted = (list: string[]) => list.map((name) => `“${name}”`).join(', ');
  if (names.branches.length > 0)
    add(
      problems,
      'branches',
      `removes branch keys that emails still use (${removed.join(', ')}): ${quoted(names.branches)}`,
    );
  if (names.subject.length > 0)
    add(
      problems,
      'can_be_used_in_subject_and_preheader',
      `cannot be turned off while emails use the conditional in their subject or preheader: ${quoted(names.subject)}`,
    );
  if (Object.keys(problems).length > 0)
    throw new ValidationError(
      problems,
      `Emails still use this conditional: ${quoted([...names.branches, ...names.subject])}`,
    );
}

export async function createConditional(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateConditionalBody>,
) {
  const profiles = await workspaceProfiles(services, workspaceId);
  const candidate: Candidate = {
    branches: input.branches,
    defaultSyntax: input.default_value,
    profileSyntaxes: (input.dynamic_content_profile_values ?? {}) as Record<string, StoredProfileSyntax>,
    defaultBranchKey: input.default_branch_key ?? null,
  };
  const problems = conditionalProblems(candidate, profiles, 'default_value');
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  const [row] = await services.database.db
    .insert(conditionals)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      label: input.label,
      branches: candidate.branches,
      defaultSyntax: candidate.defaultSyntax,
      profileSyntaxes: candidate.profileSyntaxes,
      canBeUsedInSubjectAndPreheader: input.can_be_used_in_subject_and_preheader ?? false,
      defaultBranchKey: candidate.defaultBranchKey,
    })
    .returning();
  if (!row) throw new Error('conditional insert returned nothing');
  return toResponse(row, profiles);
}

export async function updateConditional(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateConditionalBody>,
) {
  const [row, profiles] = await Promise.all([
    findWorkspaceRecord(services, conditionals, workspaceId, id),
    workspaceProfiles(services, workspaceId),
  ]);
  const candidate = {
    branches: input.branches ?? row.branches,
    defaultSyntax: input.default_value ?? row.defaultSyntax,
    profileSyntaxes: (input.dynamic_content_profile_values ?? row.profileSyntaxes) as Record<
      string,
      StoredProfileSyntax
    >,
    inSubject: input.can_be_used_in_subject_and_preheader ?? row.canBeUsedInSubjectAndPreheader,
    defaultBranchKey:
      input.default_branch_key === undefined ? row.defaultBranchKey : input.default_branch_key,
  };
  const problems = conditionalProblems(candidate, profiles, 'default_value');
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  await checkEmailsKeepTheirContent(services, row, candidate);
  const [updated] = await updateReturning(services.database.db, conditionals, eq(conditionals.id, id), {
    label: input.label,
    branches: input.branches,
    defaultSyntax: input.default_value,
    profileSyntaxes:
      input.dynamic_content_profile_values === undefined ? undefined : candidate.profileSyntaxes,
    canBeUsedInSubjectAndPreheader: input.can_be_used_in_subject_and_preheader,
    defaultBranchKey: input.default_branch_key,
  });
  if (!updated) throw new Error('conditional update returned nothing');
  return toResponse(updated, profiles);
}

/** Refused (422 naming them) while emails of the workspace use the conditional. */
export async function deleteConditional(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
) {
  await deleteWorkspaceRecordUnlessUsed(services, conditionals, workspaceId, id, {
    describe: (conditional) => `The conditional ${conditional.label}`,
    usedBy: usesConditionalCondition(id),
  });
}
