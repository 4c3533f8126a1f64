import { randomUUID } from 'node:crypto';
import {
  applyBrandProfile,
  type ComposedEmail,
  componentsForAi,
  composeEmailSchema,
  contentWithComposedEmail,
  contentWithRewrittenEmail,
  type EmailContent,
  type GenerationProblem,
  nullBranch,
  type RewrittenEmail,
  readComposedEmail,
  readRewrittenEmail,
  rewritableSections,
  rewriteEmailSchema,
} from '@letterset/core';
import type { JSONSchema7 } from 'ai';
import { eq } from 'drizzle-orm';
import { finishedAiGenerationStatus } from '../../db/ai-generation-status.ts';
import { emails } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { AiProviderError, openAiClient } from '../../integrations/ai/ai-client.ts';
import { generateWithRepairs } from '../../integrations/ai/generate-with-repairs.ts';
import type { JobPayloads } from '../../jobs/job-payloads.ts';
import type { Services } from '../../services.ts';
import { describeAgentForPrompt, loadAiAgent } from '../ai-agents/ai-agent-prompt.ts';
import { writeAiContent } from '../emails/email-ai-writes.ts';
import { renderingContext } from '../emails/emails.rendering.ts';
import { contentOf, type EmailRow } from '../emails/emails.serializers.ts';
import {
  composedProblemPlace,
  describeProblemsAt,
  type ProblemPlace,
  rewrittenProblemPlace,
} from './generation-problems.ts';
import { composeEmailPrompt, rewriteEmailPrompt } from './prompts.ts';

export type EmailGenerationRequest = JobPayloads['email-generation'];

export type EmailGenerationOutcome = 'written' | 'written_with_problems' | 'failed' | 'skipped';

/**
 * Writes an email's content with AI from its brief, in its default locale, then marks the
 * generation `done`, or `failed` with what could not be done in `ai_generation_error` (in
 * Letterset's words). Whatever happens the email ends one of the two: only a shutdown (the signal)
 * leaves it generating, for the job to run again.
 */
export async function runEmailGeneration(
  services: Services,
  request: EmailGenerationRequest,
  signal: AbortSignal,
): Promise<EmailGenerationOutcome> {
  const [email] = await services.database.db.select().from(emails).where(eq(emails.id, request.email_id));
  if (email?.aiGenerationStatus !== 'generating') return 'skipped';
  const finish = (error: string | null, change: ((current: EmailRow) => EmailContent | null) | null = null) =>
    writeAiContent(services.database.db, email.id, {
      feature: request.feature,
      userId: request.user_id,
      change: (current) => {
        const content = change?.(current);
        return content ? { content, locales: current.locales } : null;
      },
      alsoSet: { aiGenerationStatus: finishedAiGenerationStatus(error), aiGenerationError: error },
    });

  try {
    const generated = await generateContent(services, email, request, signal);
    await finish(
      generated.problems.length > 0 ? problemsMessage(generated.problems, generated.placeOf) : null,
      generated.apply,
    );
    return generated.problems.length > 0 ? 'written_with_problems' : 'written';
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof AiProviderError || error instanceof HttpError) {
      await finish(error.message);
      return 'failed';
    }
    services.log.error({ err: error, emailId: email.id }, 'email generation failed');
    await finish(
      'The email could not be generated because of an error in Letterset; it is logged on the server.',
    );
    return 'failed';
  }
}

interface GeneratedContent {
  problems: GenerationProblem[];
  placeOf: ProblemPlace;
  /** The email's content with the generated part written in, from the content as it is at write time. */
  apply(current: EmailRow): EmailContent | null;
}

async function generateContent(
  services: Services,
  email: EmailRow,
  request: EmailGenerationRequest,
  signal: AbortSignal,
): Promise<GeneratedContent> {
  const client = await openAiClient(services, {
    organizationId: email.organizationId,
    userId: request.user_id,
  });
  const { system, definitions, brandProfile } = await renderingContext(services, email);
  const components = componentsForAi(applyBrandProfile(definitions, brandProfile));
  const agentDescription =
    email.aiAgentId === null
      ? null
      : describeAgentForPrompt(await loadAiAgent(services.database.db, email.workspaceId, email.aiAgentId));
  const locale = email.defaultLocale;
  const brief = email.prompt ?? '';
  const customStyles = [...system.customStyles, ...(brandProfile?.custom_styles ?? [])];

  if (request.mode === 'compose') {
    if (components.length === 0)
      throw new GenerationRefused('The design system has no components the AI may use.');
    const prompt = composeEmailPrompt({ brief, components, agentDescription, locale });
    const generation = await generateWithRepairs<{ composed: ComposedEmail; placeOf: ProblemPlace }>(client, {
      feature: request.feature,
      ...prompt,
      schema: composeEmailSchema(components) as JSONSchema7,
      read: (value) => {
        const composed = readComposedEmail(value, components, customStyles);
        return {
          result: { composed, placeOf: composedProblemPlace(value, components) },
          problems: composed.problems,
        };
      },
      signal,
    });
    const composed = generation.result?.composed;
    return {
      problems: generation.problems,
      placeOf: generation.result?.placeOf ?? composedProblemPlace(null, components),
      apply: (current) =>
        composed && composed.sections.length > 0
          ? contentWithComposedEmail(contentOf(current), composed, locale, randomUUID)
          : null,
    };
  }

  const content = contentOf(email);
  const sections = rewritableSections(content, components, locale);
  const lineOf = (text: EmailContent['subject']) => text.branch_content[nullBranch]?.[locale] ?? '';
  const prompt = rewriteEmailPrompt({
    brief,
    sections,
    subject: lineOf(content.subject),
    preheader: lineOf(content.preheader),
    agentDescription,
    locale,
  });
  const generation = await generateWithRepairs<RewrittenEmail>(client, {
    feature: request.feature,
    ...prompt,
    schema: rewriteEmailSchema(sections) as JSONSchema7,
    read: (value) => {
      const rewritten = readRewrittenEmail(value, sections, customStyles);
      return { result: rewritten, problems: rewritten.problems };
    },
    signal,
  });
  const rewritten = generation.result;
  return {
    problems: generation.problems,
    placeOf: rewrittenProblemPlace(sections),
    apply: (current) => (rewritten ? contentWithRewrittenEmail(contentOf(current), rewritten, locale) : null),
  };
}

/** Generation that cannot start, for a reason the person can act on. */
class GenerationRefused extends HttpError {
  constructor(message: string) {
    super(422, message);
  }
}

function problemsMessage(problems: readonly GenerationProblem[], placeOf: ProblemPlace): string {
  const shown = problems.slice(0, 20);
  const more = problems.length - shown.length;
  return `The AI’s answer still had problems after two repairs; these values were left at their defaults:\n${describeProblemsAt(shown, placeOf)}${
    more > 0 ? `\n…and ${more} more` : ''
  }`;
}
