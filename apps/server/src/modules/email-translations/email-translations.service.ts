import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import {
  emailTranslations,
  type LocaleTranslationState,
  type TranslationStatus,
  users,
} from '../../db/schema.ts';
import { requirePermission } from '../../http/access.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { aiNotConfigured, loadAiConnection } from '../../integrations/ai/ai-client.ts';
import type { Services } from '../../services.ts';
import { aiAgentNamedBy } from '../ai-agents/ai-agent-prompt.ts';
import { assertEditable } from '../emails/emails.lifecycle.ts';
import type { EmailRow } from '../emails/emails.serializers.ts';
import { toUserReference, userReferenceColumns } from '../users/users.serializers.ts';
import type { CreateEmailTranslationBody, EmailTranslation } from './email-translations.schemas.ts';

type TranslationRow = typeof emailTranslations.$inferSelect;

/** The whole translation's status, from its locales': under way while any is, then completed or failed. */
export function overallStatus(states: readonly LocaleTranslationState[]): TranslationStatus {
  if (states.some((state) => state.status === 'in_progress')) return 'in_progress';
  return states.every((state) => state.status === 'completed') ? 'completed' : 'failed';
}

function toResponse(
  row: TranslationRow,
  creator: Parameters<typeof toUserReference>[0] | null,
): Static<typeof EmailTranslation> {
  const localeStatuses = Object.fromEntries(
    row.targetLocales.map((locale) => {
      const state = row.localeStatuses[locale] ?? { status: 'in_progress' as const };
      return [
        locale,
        {
          status: state.status,
          error: state.error ?? null,
          translated_values: state.translated_values ?? null,
          refused_values: state.refused_values ?? [],
        },
      ];
    }),
  );
  return {
    id: row.id,
    email_id: row.emailId,
    status: overallStatus(
      row.targetLocales.map((locale) => row.localeStatuses[locale] ?? { status: 'in_progress' }),
    ),
    source_locale: row.sourceLocale as never,
    target_locales: row.targetLocales as never,
    locale_statuses: localeStatuses,
    ai_agent_id: row.aiAgentId,
    created_by: creator?.id ? toUserReference(creator) : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * Starts a machine translation of the email's default locale into the target locales: one durable
 * job per locale, each writing its own content version. Refused up front (422) when nothing could
 * come of it: no provider, the email frozen for review, or generation still under way.
 */
export async function startEmailTranslation(
  services: Pick<Services, 'database' | 'jobs' | 'secrets' | 'config'>,
  principal: Principal,
  email: EmailRow,
  input: Static<typeof CreateEmailTranslationBody>,
) {
  const targets = input.target_locales as string[];
  if (targets.includes(email.defaultLocale)) {
    throw ValidationError.field(
      'target_locales',
      `cannot include ${email.defaultLocale}: it is the email’s default locale, which translations start from`,
    );
  }
  if (targets.some((locale) => !email.locales.includes(locale)))
    requirePermission(principal, 'add_remove_locales_from_emails');
  assertEditable(email.status);
  if (email.aiGenerationStatus === 'generating')
    throw ValidationError.field('email_content', 'is being written by AI: translate it once that is done');
  await aiAgentNamedBy(services.database.db, email.workspaceId, input.ai_agent_id);
  if (!(await loadAiConnection(services, principal.organizationId))) throw aiNotConfigured();

  const [row] = await services.database.db
    .insert(emailTranslations)
    .values({
      organizationId: email.organizationId,
      workspaceId: email.workspaceId,
      emailId: email.id,
      sourceLocale: email.defaultLocale,
      targetLocales: targets,
      localeStatuses: Object.fromEntries(
        targets.map((locale) => [locale, { status: 'in_progress' as const }]),
      ),
      aiAgentId: input.ai_agent_id ?? email.aiAgentId,
      createdById: principal.userId,
    })
    .returning();
  if (!row) throw new Error('email translation insert returned nothing');
  for (const locale of targets)
    await services.jobs.send('email-translation', { translation_id: row.id, locale });
  return getEmailTranslation(services, email, row.id);
}

export async function getEmailTranslation(services: Pick<Services, 'database'>, email: EmailRow, id: number) {
  const [found] = await services.database.db
    .select({ translation: emailTranslations, creator: userReferenceColumns })
    .from(emailTranslations)
    .leftJoin(users, eq(users.id, emailTranslations.createdById))
    .where(and(eq(emailTranslations.id, id), eq(emailTranslations.emailId, email.id)));
  if (!found) throw new NotFoundError('Email translation not found');
  return toResponse(found.translation, found.creator);
}

/** The email's translations, newest first. */
export async function listEmailTranslations(
  services: Pick<Services, 'database'>,
  email: EmailRow,
  page: PageRequest,
) {
  const db = services.database.db;
  const [rows, [total]] = await Promise.all([
    db
      .select({ translation: emailTranslations, creator: userReferenceColumns })
      .from(emailTranslations)
      .leftJoin(users, eq(users.id, emailTranslations.createdById))
      .where(eq(emailTranslations.emailId, email.id))
      .orderBy(desc(emailTranslations.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(emailTranslations).where(eq(emailTranslations.emailId, email.id)),
  ]);
  return listBody(
    rows.map(({ translation, creator }) => toResponse(translation, creator)),
    total?.value ?? 0,
    page,
  );
}

/**
 * Records one locale's state. One statement on that locale's key alone, so the jobs of the other
 * locales, running at the same time, never overwrite each other's.
 */
export async function recordLocaleState(
  services: Pick<Services, 'database'>,
  translationId: number,
  locale: string,
  state: LocaleTranslationState,
): Promise<void> {
  await services.database.db
    .update(emailTranslations)
    .set({
      localeStatuses: sql`jsonb_set(${emailTranslations.localeStatuses}, ${`{${locale}}`}::text[], ${JSON.stringify(state)}::jsonb)`,
      updatedAt: new Date(),
    })
    .where(eq(emailTranslations.id, translationId));
}
