import type { Static } from 'typebox';
import { emails } from '../../db/schema.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { assertAiGenerationPossible, checkedAiAgentId } from './email-input-checks.ts';
import { recordVersion } from './email-version-records.ts';
import { findVisibleEmail, getEmail } from './email-visibility.ts';
import type { CloneEmailBody } from './emails.schemas.ts';

export async function cloneEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof CloneEmailBody>,
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const aiAgentId = await checkedAiAgentId(services, workspaceId, input.ai_agent_id);
  if (input.clone_with_ai) await assertAiGenerationPossible(services, principal, input, 'prompt');
  const copy = await services.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emails)
      .values({
        organizationId: email.organizationId,
        workspaceId,
        projectId: email.projectId,
        emailDesignSystemId: email.emailDesignSystemId,
        brandProfileId: email.brandProfileId,
        linkTrackingProfileId: email.linkTrackingProfileId,
        aiAgentId: aiAgentId === undefined ? email.aiAgentId : aiAgentId,
        name: input.name,
        defaultLocale: email.defaultLocale,
        locales: email.locales,
        content: email.content,
        lastUpdatedById: principal.userId,
        ...(input.clone_with_ai ? { prompt: input.prompt, aiGenerationStatus: 'generating' as const } : {}),
      })
      .returning();
    if (!row) throw new Error('email insert returned nothing');
    await recordVersion(tx, row, principal);
    return row;
  });
  if (input.clone_with_ai) {
    await services.jobs.send('email-generation', {
      email_id: copy.id,
      user_id: principal.userId,
      mode: 'rewrite',
      feature: 'email_clone',
    });
  }
  return getEmail(services, principal, workspaceId, copy.id);
}
