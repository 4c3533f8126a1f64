import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { aiAgents } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';

/** What AI features need of an agent: its words for the company, and its brand guidelines' text. */
export interface AiAgentContext {
  id: number;
  name: string | null;
  companyName: string | null;
  companyOverview: string | null;
  tone: string | null;
  guidelines: string | null;
  brandGuidelinesDocumentName: string | null;
  /** The text extracted from the uploaded document, or null when there is none. */
  brandGuidelinesText: string | null;
}

/** How much of the brand guidelines document goes into a prompt, in characters. */
export const defaultBrandGuidelinesBudget = 12_000;

/** An AI agent of the workspace; another workspace's (or organization's) id is a NotFoundError. */
export async function loadAiAgent(
  db: Database,
  workspaceId: number,
  agentId: number,
): Promise<AiAgentContext> {
  const [row] = await db
    .select({
      id: aiAgents.id,
      name: aiAgents.name,
      companyName: aiAgents.companyName,
      companyOverview: aiAgents.companyOverview,
      tone: aiAgents.tone,
      guidelines: aiAgents.guidelines,
      brandGuidelinesDocumentName: aiAgents.brandGuidelinesDocumentName,
      brandGuidelinesText: aiAgents.brandGuidelinesText,
    })
    .from(aiAgents)
    .where(and(eq(aiAgents.id, agentId), eq(aiAgents.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError('AI agent not found');
  return row;
}

/**
 * The agent a request names in a body field (`ai_agent_id` of an email, a clone, a translation):
 * null when it names none, a 422 on that field when the id is no agent of the workspace.
 */
export async function aiAgentNamedBy(
  db: Database,
  workspaceId: number,
  agentId: number | null | undefined,
  field = 'ai_agent_id',
): Promise<AiAgentContext | null> {
  if (agentId === null || agentId === undefined) return null;
  return loadAiAgent(db, workspaceId, agentId).catch((error: unknown) => {
    if (error instanceof NotFoundError)
      throw ValidationError.field(field, 'is not an AI agent of this workspace');
    throw error;
  });
}

/**
 * The agent as a plain-text block for a prompt: the company, its overview, the tone, the
 * guidelines and the brand guidelines document (its first `brandGuidelinesBudget` characters,
 * cut at a paragraph, line or word, with a note saying so). Fields left empty are left out; an
 * agent with nothing to say gives ''. The document is fenced off, as words to follow for style
 * and facts rather than instructions that override the task.
 */
export function describeAgentForPrompt(
  agent: Omit<AiAgentContext, 'id' | 'name'>,
  options: { brandGuidelinesBudget?: number } = {},
): string {
  const budget = options.brandGuidelinesBudget ?? defaultBrandGuidelinesBudget;
  const sections: string[] = [];
  const present = (value: string | null) => (value && value.trim() !== '' ? value.trim() : null);

  const company = present(agent.companyName);
  if (company) sections.push(`Company: ${company}`);
  const overview = present(agent.companyOverview);
  if (overview) sections.push(`Company overview:\n${overview}`);
  const tone = present(agent.tone);
  if (tone) sections.push(`Tone of voice: ${tone}`);
  const guidelines = present(agent.guidelines);
  if (guidelines) sections.push(`Guidelines to follow:\n${guidelines}`);

  const document = present(agent.brandGuidelinesText);
  if (document) {
    const title = present(agent.brandGuidelinesDocumentName);
    const excerpt = trimToBudget(document, budget);
    const lines = [
      `Brand guidelines${title ? ` (“${title}”)` : ''}, from the company's document:`,
      '<<<brand guidelines',
      excerpt,
      'brand guidelines>>>',
    ];
    if (excerpt.length < document.length) {
      lines.push(
        `(The document was trimmed: these are its first ${format(excerpt.length)} of ${format(document.length)} characters.)`,
      );
    }
    sections.push(lines.join('\n'));
  }
  return sections.join('\n\n');
}

/** The start of the text within the budget, cut at the last paragraph, line or word break near its end. */
function trimToBudget(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const head = text.slice(0, budget);
  // A break in the last fifth of the budget is worth the few characters it costs.
  const earliest = Math.floor(budget * 0.8);
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = head.lastIndexOf(separator);
    if (at >= earliest) return head.slice(0, at).trimEnd();
  }
  // No break near the end: cut where the budget ends, never inside a surrogate pair.
  return head.toWellFormed() === head ? head : head.slice(0, -1);
}

function format(count: number): string {
  return count.toLocaleString('en-US');
}
