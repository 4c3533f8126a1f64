import {
  applyBrandProfile,
  applyTranslations,
  collectTranslatableValues,
  copyLocaleContent,
  type DescribeOptions,
  effectiveText,
  type GenerationProblem,
  localeInfo,
  type MaskedText,
  maskProtectedMarkup,
  needsTranslation,
  type TranslatableValue,
  unmaskProtectedMarkup,
  validateFieldValue,
} from '@letterset/core';
import type { JSONSchema7 } from 'ai';
import { eq } from 'drizzle-orm';
import { emails, emailTranslations, type LocaleTranslationState } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { type AiClient, AiProviderError, openAiClient } from '../../integrations/ai/ai-client.ts';
import { generateWithRepairs } from '../../integrations/ai/generate-with-repairs.ts';
import type { JobPayloads } from '../../jobs/job-payloads.ts';
import type { Services } from '../../services.ts';
import { describeAgentForPrompt, loadAiAgent } from '../ai-agents/ai-agent-prompt.ts';
import { writeAiContent } from '../emails/email-ai-writes.ts';
import { renderingContext } from '../emails/emails.rendering.ts';
import { contentOf } from '../emails/emails.serializers.ts';
import { recordLocaleState } from './email-translations.service.ts';

export type LocaleTranslationRequest = JobPayloads['email-translation'];

/** Values asked for in one request: enough to share context, few enough for any model's output. */
const valuesPerRequest = 40;

/** A value to translate, as the model sees it: its placeholders in, its markup out. */
interface SourceValue {
  /** `v1`, `v2`…: short names for the answer's properties (keys hold UUIDs and dots). */
  name: string;
  value: TranslatableValue;
  masked: MaskedText;
}

/**
 * Translates an email's default locale into one locale and writes the result as one content version
 * touching only that locale's values, on the email as it is when written (an editor's changes made
 * meanwhile are kept). Values whose translation breaks protected markup or the field's validations,
 * after repairs, are reported and not written. Ends the locale `completed` or `failed`; only a
 * shutdown (the signal) leaves it under way, for the job to run again.
 */
export async function runLocaleTranslation(
  services: Services,
  request: LocaleTranslationRequest,
  signal: AbortSignal,
): Promise<LocaleTranslationState['status'] | 'skipped'> {
  const db = services.database.db;
  const [translation] = await db
    .select()
    .from(emailTranslations)
    .where(eq(emailTranslations.id, request.translation_id));
  if (translation?.localeStatuses[request.locale]?.status !== 'in_progress') return 'skipped';
  const [email] = await db.select().from(emails).where(eq(emails.id, translation.emailId));
  const finish = async (state: LocaleTranslationState) => {
    await recordLocaleState(services, translation.id, request.locale, state);
    return state.status;
  };
  if (!email) return finish({ status: 'failed', error: 'The email was deleted.' });

  try {
    const client = await openAiClient(services, {
      organizationId: email.organizationId,
      userId: translation.createdById,
    });
    const { definitions, brandProfile, dynamicContent } = await renderingContext(services, email);
    const tagLabels = new Map(
      (dynamicContent.personalizationTags ?? []).map((tag) => [tag.id, tag.label] as const),
    );
    const describe: DescribeOptions = { tagLabel: (id) => tagLabels.get(id) };
    const components = applyBrandProfile(definitions, brandProfile);
    const source = translation.sourceLocale;
    const values = collectTranslatableValues({ content: contentOf(email), components }).filter(
      (value) =>
        !value.hiddenFromAi &&
        !value.hiddenFromLocales.includes(request.locale) &&
        needsTranslation(value, source),
    );
    const agent =
      translation.aiAgentId === null
        ? null
        : await loadAiAgent(db, email.workspaceId, translation.aiAgentId).catch(() => null);

    const translated = new Map<string, string>();
    const refused: { key: string; reason: string }[] = [];
    for (let start = 0; start < values.length; start += valuesPerRequest) {
      const batch = values.slice(start, start + valuesPerRequest).map((value, index) => ({
        name: `v${start + index + 1}`,
        value,
        masked: maskProtectedMarkup(effectiveText(value, source), value.format),
      }));
      const result = await translateBatch(client, batch, {
        source,
        target: request.locale,
        agentDescription: agent ? describeAgentForPrompt(agent) : null,
        signal,
        describe,
      });
      for (const [key, text] of result.translated) translated.set(key, text);
      refused.push(...result.refused);
    }

    await writeAiContent(db, email.id, {
      feature: 'translation',
      userId: translation.createdById,
      change: (current) => {
        const added = !current.locales.includes(request.locale);
        const locales = added ? [...current.locales, request.locale] : current.locales;
        // A locale the translation adds starts, like any new locale, as a copy of the source's values
        // (images, links, what is not translated), which the translations then replace.
        const startingContent = added
          ? copyLocaleContent(contentOf(current), source, request.locale, { mode: 'fill' })
          : contentOf(current);
        // Read again: the email may have changed while the model was translating; values gone since are dropped.
        const currentValues = collectTranslatableValues({ content: startingContent, components });
        const known = new Set(currentValues.map((value) => value.key));
        const applied = applyTranslations({
          content: startingContent,
          values: currentValues,
          defaultLocale: current.defaultLocale,
          locales,
          markUnchangedTranslated: true,
          updates: [...translated]
            .filter(([key]) => known.has(key))
            .map(([key, text]) => ({ key, locale: request.locale, text })),
        });
        if (applied.problems.length > 0)
          throw new Error(`translated values failed to apply: ${JSON.stringify(applied.problems)}`);
        return { content: applied.content, locales };
      },
    });
    return finish({ status: 'completed', translated_values: translated.size, refused_values: refused });
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof AiProviderError || error instanceof HttpError)
      return finish({ status: 'failed', error: plainReason(error) });
    services.log.error(
      { err: error, translationId: translation.id, locale: request.locale },
      'translation failed',
    );
    return finish({
      status: 'failed',
      error:
        'The locale could not be translated because of an error in Letterset; it is logged on the server.',
    });
  }
}

/** A refusal in words for the Localization panel: a 422's field messages read better than "Failed to save". */
function plainReason(error: HttpError): string {
  const errors = (error.toBody().errors ?? {}) as Record<string, string[]>;
  const first = Object.entries(errors)[0];
  return first ? `The email’s ${first[0].replace(/_/g, ' ')} ${first[1][0] ?? ''}`.trim() : error.message;
}

async function translateBatch(
  client: AiClient,
  batch: readonly SourceValue[],
  context: {
    source: string;
    target: string;
    agentDescription: string | null;
    signal: AbortSignal;
    describe: DescribeOptions;
  },
): Promise<{ translated: Map<string, string>; refused: { key: string; reason: string }[] }> {
  // The model is told its problems in placeholders; people read what those stand for.
  const inWords = new Map<string, { problem: string; description: string }>();
  const read = (answer: unknown) => {
    const translations = ((answer as { translations?: unknown } | null)?.translations ?? {}) as Record<
      string,
      unknown
    >;
    const result = new Map<string, string>();
    const problems: GenerationProblem[] = [];
    for (const entry of batch) {
      const text = translations[entry.name];
      if (typeof text !== 'string' || text.trim() === '') {
        problems.push({ path: entry.name, message: 'is missing' });
        inWords.set(entry.name, { problem: 'is missing', description: 'the AI gave no translation for it' });
        continue;
      }
      const restored = unmaskProtectedMarkup(text, entry.masked, context.describe);
      if (!restored.ok) {
        problems.push({ path: entry.name, message: restored.problem });
        inWords.set(entry.name, { problem: restored.problem, description: restored.description });
        continue;
      }
      const messages = entry.value.definition
        ? validateFieldValue(entry.value.definition, restored.text)
        : [];
      if (messages.length > 0) {
        problems.push({ path: entry.name, message: messages.join('; ') });
        continue;
      }
      result.set(entry.value.key, restored.text);
    }
    return { result, problems };
  };
  const generation = await generateWithRepairs(client, {
    feature: 'translation',
    system: translationInstructions(context),
    messages: [
      {
        role: 'user',
        content: JSON.stringify(
          Object.fromEntries(
            batch.map((entry) => [entry.name, { text: entry.masked.masked, field: entry.value.fieldLabel }]),
          ),
        ),
      },
    ],
    schema: {
      type: 'object',
      properties: {
        translations: {
          type: 'object',
          properties: Object.fromEntries(batch.map((entry) => [entry.name, { type: 'string' }])),
          required: batch.map((entry) => entry.name),
          additionalProperties: false,
        },
      },
      required: ['translations'],
      additionalProperties: false,
    } as JSONSchema7,
    read: (answer) => {
      const { result, problems } = read(answer);
      return { result, problems };
    },
    signal: context.signal,
  });
  const translated = generation.result ?? new Map<string, string>();
  const byName = new Map(batch.map((entry) => [entry.name, entry.value.key]));
  const refused = generation.problems.map((problem) => {
    const words = inWords.get(problem.path);
    return {
      key: byName.get(problem.path) ?? problem.path,
      reason: words?.problem === problem.message ? words.description : problem.message,
    };
  });
  return { translated, refused };
}

function translationInstructions(context: {
  source: string;
  target: string;
  agentDescription: string | null;
}): string {
  const name = (code: string) => `${localeInfo(code)?.name ?? code} (${code})`;
  return [
    `You translate the texts of a marketing email from ${name(context.source)} into ${name(context.target)}.`,
    'The user sends a JSON object of texts by name; answer with the same names, each with its translation.',
    'Placeholders such as ⟦1⟧ stand for markup, links and personalization that must not change: keep every placeholder exactly once, where the translated sentence needs it, and add no markup, links or template syntax of your own.',
    'Keep the meaning, the tone and roughly the length; keep brand and product names as they are.',
    ...(context.agentDescription ? [`The company’s voice and guidelines:\n${context.agentDescription}`] : []),
  ].join('\n\n');
}
