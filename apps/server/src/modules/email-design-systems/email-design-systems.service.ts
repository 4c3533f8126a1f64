import { and, asc, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Static } from 'typebox';
import { readAiGenerationStatus } from '../../db/ai-generation-status.ts';
import { escapeLikePattern } from '../../db/like.ts';
import { updateReturning } from '../../db/record-updates.ts';
import { aiAgents, emailDesignSystems, emails } from '../../db/schema.ts';
import { ForbiddenError, NotFoundError, quotedNames, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { aiNotConfigured, loadAiConnection } from '../../integrations/ai/ai-client.ts';
import type { Services } from '../../services.ts';
import type {
  CreateEmailDesignSystemBody,
  EmailDesignSystem,
  ListEmailDesignSystemsQuery,
  UpdateEmailDesignSystemBody,
} from './email-design-systems.schemas.ts';

type DesignSystemRow = typeof emailDesignSystems.$inferSelect;

function toDesignSystemResponse(row: DesignSystemRow, workspaceId: number): Static<typeof EmailDesignSystem> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organization_id: row.organizationId,
    workspace_id: row.workspaceId,
    shared: row.workspaceId !== workspaceId,
    access_scope: row.accessScope,
    require_brand_profile_for_use: row.requireBrandProfileForUse,
    archived: row.archived,
    design_tokens: row.designTokens,
    custom_styles: row.customStyles,
    screenshot_url: row.screenshotUrl,
    // Uploads arrive with their issue; until then every system is ready.
    upload_status: 'ready',
    create_with_ai: row.createWithAi,
    prompt: row.prompt,
    ai_generation_status: readAiGenerationStatus(row.aiGenerationStatus, row.aiGenerationError),
    ai_generation_error: row.aiGenerationError,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** Systems a workspace can see: its own, and (unless excluded) those shared by its organization's other workspaces. */
function visibleIn(principal: Principal, workspaceId: number, includeShared = true) {
  const own = eq(emailDesignSystems.workspaceId, workspaceId);
  return and(
    eq(emailDesignSystems.organizationId, principal.organizationId),
    includeShared ? or(own, eq(emailDesignSystems.accessScope, 'all_workspaces')) : own,
  );
}

/** `visibleIn` for a row already read (the render API keeps design systems in memory). */
export function isVisibleIn(
  system: Pick<DesignSystemRow, 'organizationId' | 'workspaceId' | 'accessScope'>,
  principal: Principal,
  workspaceId: number,
): boolean {
  return (
    system.organizationId === principal.organizationId &&
    (system.workspaceId === workspaceId || system.accessScope === 'all_workspaces')
  );
}

const orderings = {
  name_asc: [asc(emailDesignSystems.name), asc(emailDesignSystems.id)],
  name_desc: [desc(emailDesignSystems.name), desc(emailDesignSystems.id)],
  created_at_asc: [asc(emailDesignSystems.createdAt), asc(emailDesignSystems.id)],
  created_at_desc: [desc(emailDesignSystems.createdAt), desc(emailDesignSystems.id)],
  updated_at_asc: [asc(emailDesignSystems.updatedAt), asc(emailDesignSystems.id)],
  updated_at_desc: [desc(emailDesignSystems.updatedAt), desc(emailDesignSystems.id)],
} as const;

export async function listDesignSystems(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  query: Static<typeof ListEmailDesignSystemsQuery>,
  page: PageRequest,
) {
  const archived = query.archived ?? 'false';
  const where = and(
    visibleIn(principal, workspaceId, query.include_shared ?? true),
    archived === 'all' ? undefined : eq(emailDesignSystems.archived, archived === 'true'),
    query.search ? ilike(emailDesignSystems.name, `%${escapeLikePattern(query.search)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select()
      .from(emailDesignSystems)
      .where(where)
      .orderBy(...orderings[query.sort ?? 'name_asc'])
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(emailDesignSystems).where(where),
  ]);
  return listBody(
    rows.map((row) => toDesignSystemResponse(row, workspaceId)),
    total?.value ?? 0,
    page,
  );
}

/** A system this workspace can see (404 otherwise, as for another organization's). */
export async function findVisibleDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
) {
  const [row] = await services.database.db
    .select()
    .from(emailDesignSystems)
    .where(and(eq(emailDesignSystems.id, id), visibleIn(principal, workspaceId)));
  if (!row) throw new NotFoundError();
  return row;
}

/** Only the owning workspace changes a system: one source of truth for everyone it is shared with. */
export async function findEditableDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
) {
  const row = await findVisibleDesignSystem(services, principal, workspaceId, id);
  if (row.workspaceId !== workspaceId) {
    throw new ForbiddenError(
      'This design system is shared from another workspace; change it from its own workspace',
    );
  }
  return row;
}

export async function getDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
) {
  return toDesignSystemResponse(
    await findVisibleDesignSystem(services, principal, workspaceId, id),
    workspaceId,
  );
}

function assertUniqueStyleNames(customStyles: readonly { name: string }[] | undefined) {
  if (!customStyles) return;
  const seen = new Set<string>();
  const errors: Record<string, string[]> = {};
  customStyles.forEach((style, index) => {
    if (seen.has(style.name))
      errors[`custom_styles.${index}.name`] = ['is already used by another custom style'];
    seen.add(style.name);
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** What is wrong with the AI agent a create names: none, or not an agent of this workspace. */
async function checkedAiAgent(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number | null | undefined,
): Promise<string[]> {
  if (id == null) return [];
  const [agent] = await services.database.db
    .select({ id: aiAgents.id })
    .from(aiAgents)
    .where(and(eq(aiAgents.id, id), eq(aiAgents.workspaceId, workspaceId)));
  return agent ? [] : ['is not an AI agent of this workspace'];
}

/**
 * Checks the AI fields of a create. Designing with AI needs a brief and a provider (without one
 * the answer is the 422 that says an Admin can set one up); a named agent must be the workspace's.
 */
async function assertAiFields(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateEmailDesignSystemBody>,
) {
  const errors: Record<string, string[]> = {};
  if (input.create_with_ai && !input.prompt?.trim())
    errors.prompt = ['is needed to design the system with AI'];
  const agentProblems = await checkedAiAgent(services, workspaceId, input.ai_agent_id);
  if (agentProblems.length > 0) errors.ai_agent_id = agentProblems;
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  if (input.create_with_ai && !(await loadAiConnection(services, principal.organizationId))) {
    throw aiNotConfigured();
  }
}

export async function createDesignSystem(
  services: Pick<Services, 'database' | 'secrets' | 'config' | 'jobs'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateEmailDesignSystemBody>,
) {
  assertUniqueStyleNames(input.custom_styles);
  const withAi = input.create_with_ai === true;
  await assertAiFields(services, principal, workspaceId, input);
  const [row] = await services.database.db
    .insert(emailDesignSystems)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      name: input.name,
      description: input.description ?? null,
      accessScope: input.access_scope,
      requireBrandProfileForUse: input.require_brand_profile_for_use ?? false,
      designTokens: input.design_tokens ?? {},
      customStyles: input.custom_styles ?? [],
      createdById: principal.userId,
      ...(withAi
        ? { createWithAi: true, prompt: input.prompt, aiGenerationStatus: 'generating' as const }
        : {}),
    })
    .returning();
  if (!row) throw new Error('design system insert returned nothing');
  if (withAi) {
    await services.jobs.send('design-system-generation', {
      email_design_system_id: row.id,
      user_id: principal.userId,
      ai_agent_id: input.ai_agent_id ?? null,
    });
  }
  return toDesignSystemResponse(row, workspaceId);
}

export async function updateDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateEmailDesignSystemBody>,
) {
  await findEditableDesignSystem(services, principal, workspaceId, id);
  assertUniqueStyleNames(input.custom_styles);
  const [row] = await updateReturning(
    services.database.db,
    emailDesignSystems,
    eq(emailDesignSystems.id, id),
    {
      name: input.name,
      description: input.description,
      accessScope: input.access_scope,
      requireBrandProfileForUse: input.require_brand_profile_for_use,
      designTokens: input.design_tokens,
      customStyles: input.custom_styles,
      archived: input.archived,
    },
  );
  if (!row) throw new NotFoundError();
  return toDesignSystemResponse(row, workspaceId);
}

export async function deleteDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<void> {
  await findEditableDesignSystem(services, principal, workspaceId, id);
  const usedBy = await services.database.db
    .select({ name: emails.name })
    .from(emails)
    .where(eq(emails.emailDesignSystemId, id))
    .orderBy(asc(emails.name))
    .limit(6);
  if (usedBy.length > 0) {
    throw ValidationError.field(
      'email_design_system',
      `is used by emails (${quotedNames(usedBy.map((email) => email.name))}); archive it instead, or delete them first`,
    );
  }
  await services.database.db.delete(emailDesignSystems).where(eq(emailDesignSystems.id, id));
}
