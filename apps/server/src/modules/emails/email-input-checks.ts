import { conditionalReferenceProblems, type EmailContent } from '@letterset/core';
import { notFoundAsFieldError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { aiNotConfigured, loadAiConnection } from '../../integrations/ai/ai-client.ts';
import type { Services } from '../../services.ts';
import { aiAgentNamedBy } from '../ai-agents/ai-agent-prompt.ts';
import { findBrandProfile } from '../brand-profiles/brand-profiles.service.ts';
import { loadDynamicContent } from '../dynamic-content-profiles/dynamic-content-profiles.service.ts';
import { findLinkTrackingProfileToUse } from '../link-tracking-profiles/link-tracking-profiles.service.ts';

/*
 * Checks of what a create, an update or a clone names (locales, AI agent, AI provider, link tracking
 * and brand profiles, conditionals), shared by the services that write emails.
 */

/** The default locale and the locale list, each defaulting to the other; the default must be listed. */
export function localesOf(input: { default_locale?: string; locales?: string[] }) {
  const localeList = input.locales ?? [input.default_locale ?? 'en-US'];
  const defaultLocale = input.default_locale ?? localeList[0] ?? 'en-US';
  if (!localeList.includes(defaultLocale)) {
    throw ValidationError.field('default_locale', 'must be one of the email’s locales');
  }
  return { defaultLocale, locales: localeList };
}

/** The id as given (null and undefined pass through), once the workspace is known to have that agent. */
export async function checkedAiAgentId(
  services: Services,
  workspaceId: number,
  id: number | null | undefined,
): Promise<number | null | undefined> {
  if (id != null) await aiAgentNamedBy(services.database.db, workspaceId, id);
  return id;
}

/**
 * What an AI generation needs before the email exists: a brief and a provider (so that nothing
 * pretends: without one the answer is the 422 that says an Admin can set one up).
 */
export async function assertAiGenerationPossible(
  services: Services,
  principal: Principal,
  input: { prompt?: string | undefined },
  promptField: 'prompt',
) {
  if (!input.prompt?.trim()) throw ValidationError.field(promptField, 'is needed to write the email with AI');
  if (!(await loadAiConnection(services, principal.organizationId))) throw aiNotConfigured();
}

/** The id as given (null and undefined pass through), once the workspace is known to have it. */
export async function checkedLinkTrackingProfileId(
  services: Services,
  workspaceId: number,
  id: number | null | undefined,
): Promise<number | null | undefined> {
  if (id != null) await findLinkTrackingProfileToUse(services, workspaceId, id);
  return id;
}

/** Conditionals named in the content must be the workspace's, with the branches they hold. */
export async function conditionalProblems(services: Services, workspaceId: number, content: EmailContent) {
  if (!namesAnyConditional(content)) return {};
  const { conditionals } = await loadDynamicContent(services, workspaceId, {});
  return conditionalReferenceProblems(content, conditionals ?? [], 'email_content');
}

function namesAnyConditional(content: EmailContent): boolean {
  return [
    content.subject,
    content.preheader,
    content.container_component_instance,
    ...content.component_instances,
  ].some((part) => part?.conditional_id != null);
}

export async function brandProfileFor(
  services: Services,
  system: { id: number; requireBrandProfileForUse: boolean },
  brandProfileId: number | null | undefined,
): Promise<number | null> {
  if (brandProfileId == null) {
    if (system.requireBrandProfileForUse) {
      throw ValidationError.field(
        'brand_profile_id',
        'is required: this design system is used through a brand profile',
      );
    }
    return null;
  }
  await findBrandProfile(services, system.id, brandProfileId).catch(
    notFoundAsFieldError('brand_profile_id', 'is not a brand profile of the email’s design system'),
  );
  return brandProfileId;
}
