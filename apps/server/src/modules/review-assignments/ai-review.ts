import { randomUUID } from 'node:crypto';
import { applyBrandProfile, branchedTextFor, textDirectionOf } from '@letterset/core';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { aiReviewers, emailComments, emails, projects, reviewAssignments } from '../../db/schema.ts';
import { HttpError, NotFoundError } from '../../http/errors.ts';
import { AiProviderError, openAiClient } from '../../integrations/ai/ai-client.ts';
import { generateWithRepairs } from '../../integrations/ai/generate-with-repairs.ts';
import type { JobPayloads } from '../../jobs/job-payloads.ts';
import type { Services } from '../../services.ts';
import { describeAgentForPrompt, loadAiAgent } from '../ai-agents/ai-agent-prompt.ts';
import { announceEmailEvent } from '../emails/email-events.ts';
import { renderingContext } from '../emails/emails.rendering.ts';
import { contentOf, type EmailRow } from '../emails/emails.serializers.ts';
import { toDesignSystemDefinition } from '../renders/renders.service.ts';
import {
  type ReviewComment,
  readReviewAnswer,
  reviewAnswerSchema,
  reviewPrompt,
  reviewSections,
} from './ai-review-prompt.ts';

/** One run of an AI reviewer's review of an email (the job's payload). */
export type AiReviewRequest = JobPayloads['ai-review'];

export type AiReviewOutcome = 'done' | 'failed' | 'skipped';

/**
 * Where an AI reviewer's pin sits on its section: at the section's top, centred, its marker (24 px,
 * centred on the point) just inside the section. Further comments on the same section sit beside
 * the first, right then left, so each marker stays visible.
 */
export function aiPinCoordinates(indexOnSection: number): { center_offset_x_px: number; y: number } {
  const step = 28;
  const distance = Math.ceil(indexOnSection / 2) * step;
  return { center_offset_x_px: indexOnSection % 2 === 1 || distance === 0 ? distance : -distance, y: 12 };
}

/**
 * Reviews the email, each of its locales, by the reviewer's instructions and the email's AI agent,
 * and posts the comments in one go (none are posted when a locale fails, so running again never
 * doubles them), then ends the assignment `done`, or `failed` with what went wrong in plain words.
 * Only a shutdown (the signal) leaves it running, for the job to run again from the start.
 */
export async function runAiReview(
  services: Services,
  request: AiReviewRequest,
  signal: AbortSignal,
): Promise<AiReviewOutcome> {
  const db = services.database.db;
  const [assignment] = await db
    .select()
    .from(reviewAssignments)
    .where(eq(reviewAssignments.id, request.review_assignment_id));
  if (assignment?.assigneeType !== 'AiReviewer' || assignment.aiReviewStatus !== 'running') {
    return 'skipped';
  }
  // The end of a run is announced, so the editor's Review tab shows a failure (or the end) at once.
  const fail = async (message: string): Promise<AiReviewOutcome> => {
    await db.transaction(async (tx) => {
      const [failed] = await tx
        .update(reviewAssignments)
        .set({ aiReviewStatus: 'failed', aiReviewError: message })
        .where(and(eq(reviewAssignments.id, assignment.id), eq(reviewAssignments.aiReviewStatus, 'running')))
        .returning({ emailId: reviewAssignments.emailId });
      if (failed) await announceEmailEvent(tx, { type: 'review_changed', email_id: failed.emailId });
    });
    return 'failed';
  };

  try {
    const [[email], [reviewer]] = await Promise.all([
      db.select().from(emails).where(eq(emails.id, assignment.emailId)),
      db
        .select()
        .from(aiReviewers)
        .where(
          and(eq(aiReviewers.id, assignment.assigneeId), eq(aiReviewers.workspaceId, assignment.workspaceId)),
        ),
    ]);
    if (!email || !reviewer) return fail('The AI reviewer or the email no longer exists.');
    const comments = await reviewEmail(services, email, reviewer, request.user_id, signal);
    await db.transaction(async (tx) => {
      const perSection = new Map<string, number>();
      const rows = comments.map(({ locale, comment }) => {
        const key = `${locale}/${comment.componentInstanceId}`;
        const index = perSection.get(key) ?? 0;
        perSection.set(key, index + 1);
        return {
          organizationId: email.organizationId,
          workspaceId: email.workspaceId,
          emailId: email.id,
          locale,
          authorType: 'AiReviewer' as const,
          authorAiReviewerId: reviewer.id,
          pinData: {
            id: randomUUID(),
            component_instance_id: comment.componentInstanceId,
            branch_key: null,
            coordinates: aiPinCoordinates(index),
          },
          body: comment.body,
        };
      });
      if (rows.length > 0) await tx.insert(emailComments).values(rows);
      for (const locale of new Set(comments.map((entry) => entry.locale))) {
        await announceEmailEvent(tx, { type: 'comments_changed', email_id: email.id, locale });
      }
      await tx
        .update(reviewAssignments)
        .set({ aiReviewStatus: 'done', aiReviewError: null })
        .where(and(eq(reviewAssignments.id, assignment.id), eq(reviewAssignments.aiReviewStatus, 'running')));
      await announceEmailEvent(tx, { type: 'review_changed', email_id: email.id });
    });
    return 'done';
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof AiProviderError || error instanceof HttpError) return fail(error.message);
    services.log.error({ err: error, reviewAssignmentId: assignment.id }, 'AI review failed');
    return fail('The review could not run because of an error in Letterset; it is logged on the server.');
  }
}

/** The comments of every locale of the email, as the model answered them (their valid part). */
async function reviewEmail(
  services: Services,
  email: EmailRow,
  reviewer: typeof aiReviewers.$inferSelect,
  userId: number,
  signal: AbortSignal,
): Promise<{ locale: string; comment: ReviewComment }[]> {
  const db = services.database.db;
  const client = await openAiClient(services, { organizationId: email.organizationId, userId });
  const [{ system, definitions, brandProfile, dynamicContent }, [project], agent, openComments] =
    await Promise.all([
      renderingContext(services, email),
      db
        .select({ id: projects.id, name: projects.name })
        .from(projects)
        .where(eq(projects.id, email.projectId)),
      email.aiAgentId === null
        ? null
        : loadAiAgent(db, email.workspaceId, email.aiAgentId).catch((error: unknown) => {
            // An agent deleted since: the review runs on the instructions alone.
            if (error instanceof NotFoundError) return null;
            throw error;
          }),
      db
        .select({
          locale: emailComments.locale,
          pinData: emailComments.pinData,
          body: emailComments.body,
        })
        .from(emailComments)
        .where(
          and(
            eq(emailComments.emailId, email.id),
            eq(emailComments.authorType, 'AiReviewer'),
            eq(emailComments.authorAiReviewerId, reviewer.id),
            eq(emailComments.resolved, false),
            isNull(emailComments.parentId),
          ),
        )
        .orderBy(asc(emailComments.id)),
    ]);
  const content = contentOf(email);
  const components = applyBrandProfile(definitions, brandProfile);
  const agentDescription = agent ? describeAgentForPrompt(agent) : null;

  const posted: { locale: string; comment: ReviewComment }[] = [];
  // One render budget for the review, shared by its locales (the model's time is not counted).
  const budget = services.renderer.budget();
  for (const locale of email.locales) {
    // As a reader sees it, template problems shown softly: the review is about the words.
    const [output] = await services.renderer.render(
      [
        {
          designSystem: toDesignSystemDefinition(system),
          components: definitions,
          brandProfile,
          content,
          locale,
          mode: 'render_api',
          dynamicContent,
          email: { id: email.id, name: email.name, textDirection: textDirectionOf(locale) },
          project: project ?? null,
        },
      ],
      budget,
      { plainText: true },
    );
    if (!output) throw new Error(`no render of ${locale}`);
    const sections = reviewSections(content, components, locale);
    const sectionIds = new Set(sections.map((section) => section.component_instance_id));
    const prompt = reviewPrompt({
      reviewerName: reviewer.name,
      reviewInstructions: reviewer.reviewInstructions,
      agentDescription,
      locale,
      subject: output.subject || branchedTextFor(content.subject, locale),
      preheader: output.preheader || branchedTextFor(content.preheader, locale),
      plainText: output.plainText,
      sections,
      openComments: openComments
        .filter((comment) => comment.locale === locale)
        .map((comment) => ({
          componentInstanceId: comment.pinData?.component_instance_id ?? null,
          body: comment.body,
        })),
    });
    const generation = await generateWithRepairs<ReviewComment[]>(client, {
      feature: 'ai_review',
      ...prompt,
      schema: reviewAnswerSchema(sections),
      read: (value) => readReviewAnswer(value, sectionIds),
      signal,
    });
    if (generation.result === null) {
      throw new AiReviewRefused(
        `The AI’s answer for ${locale} could not be read after two repairs (${generation.problems
          .map((problem) => problem.message)
          .join('; ')}). Run the review again, or choose another model in Settings › AI.`,
      );
    }
    // The preview marks no element as the container's: a comment on it is pinned to the email.
    const containerId = content.container_component_instance?.id;
    for (const comment of generation.result) {
      const onContainer = comment.componentInstanceId !== null && comment.componentInstanceId === containerId;
      posted.push({ locale, comment: onContainer ? { ...comment, componentInstanceId: null } : comment });
    }
  }
  return posted;
}

/** A review that could not be completed, for a reason worth telling as it is. */
class AiReviewRefused extends HttpError {
  constructor(message: string) {
    super(422, message);
  }
}
