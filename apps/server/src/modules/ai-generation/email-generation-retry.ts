import { and, eq, inArray } from 'drizzle-orm';
import { emails } from '../../db/schema.ts';
import { ConflictError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { announceEmailEvent } from '../emails/email-events.ts';
import { assertAiGenerationPossible } from '../emails/email-input-checks.ts';
import { findVisibleEmail, getEmail } from '../emails/email-visibility.ts';
import { assertEditable } from '../emails/emails.lifecycle.ts';
import { contentOf } from '../emails/emails.serializers.ts';

/**
 * Runs an email's AI generation again once the last run ended (failed, or finished with
 * problems), with the same brief or an edited one. The sections already there are rewritten (a
 * layout's, a clone's, or what the last run wrote); an email that is still empty is composed.
 */
export async function retryEmailGeneration(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: { prompt?: string | undefined },
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  if (email.aiGenerationStatus === null)
    throw ValidationError.field('ai_generation_status', 'is not set: this email was not written with AI');
  assertEditable(email.status);
  const prompt = input.prompt ?? email.prompt ?? undefined;
  await assertAiGenerationPossible(services, principal, { prompt }, 'prompt');

  const started = await services.database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(emails)
      .set({ prompt, aiGenerationStatus: 'generating', aiGenerationError: null })
      .where(and(eq(emails.id, email.id), inArray(emails.aiGenerationStatus, ['done', 'failed'])))
      .returning();
    if (row) {
      await announceEmailEvent(tx, {
        type: 'ai_generation_changed',
        email_id: row.id,
        ai_generation_status: row.aiGenerationStatus,
      });
    }
    return row;
  });
  if (!started) throw new ConflictError('AI is already writing this email; wait for it to finish');

  await services.jobs.send('email-generation', {
    email_id: started.id,
    user_id: principal.userId,
    mode: contentOf(started).component_instances.length > 0 ? 'rewrite' : 'compose',
    feature: started.createWithAi ? 'email_generation' : 'email_clone',
  });
  return getEmail(services, principal, workspaceId, started.id);
}
