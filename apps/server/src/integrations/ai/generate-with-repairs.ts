import { describeProblems, type GenerationProblem } from '@letterset/core';
import type { JSONSchema7, ModelMessage } from 'ai';
import type { AiClient, AiFeature } from './ai-client.ts';

/** What a caller makes of one answer: its reading of the value, and what is wrong with it. */
export interface ReadAnswer<Result> {
  result: Result;
  problems: GenerationProblem[];
}

export interface RepairedGeneration<Result> {
  /** The last answer that could be read at all (its valid part); null when none could. */
  result: Result | null;
  /** What was still wrong with it: empty when the answer was entirely valid. */
  problems: GenerationProblem[];
  /** How many times the model was asked to repair its answer. */
  repairs: number;
}

/**
 * Asks for structured output and checks it with the caller's own rules; an answer with problems
 * is sent back with them, for at most `maxRepairs` repairs. The caller keeps the valid part of the
 * last answer and reports the rest: nothing invalid is written, and nothing fails silently.
 */
export async function generateWithRepairs<Result>(
  client: AiClient,
  request: {
    feature: AiFeature;
    system: string;
    messages: ModelMessage[];
    schema: JSONSchema7;
    /** May be asynchronous: a check that renders templates does so in the render pool. */
    read(value: unknown): ReadAnswer<Result> | Promise<ReadAnswer<Result>>;
    maxRepairs?: number;
    signal?: AbortSignal;
  },
): Promise<RepairedGeneration<Result>> {
  const maxRepairs = request.maxRepairs ?? 2;
  const messages = [...request.messages];
  let best: RepairedGeneration<Result> = { result: null, problems: [], repairs: 0 };
  for (let attempt = 0; attempt <= maxRepairs; attempt++) {
    const answer = await client.generateStructured({
      feature: request.feature,
      system: request.system,
      messages,
      schema: request.schema,
      signal: request.signal,
    });
    const read: ReadAnswer<Result> | null = answer.ok ? await request.read(answer.value) : null;
    const problems = read ? read.problems : [{ path: '', message: answer.ok ? '' : answer.problem }];
    if (read) best = { result: read.result, problems, repairs: attempt };
    else if (best.result === null) best = { result: null, problems, repairs: attempt };
    if (read && problems.length === 0) return best;
    if (attempt < maxRepairs) messages.push(...repairMessages(answer.text, problems));
  }
  return best;
}

/** The turn that asks the model to repair its answer, after showing it what it said. */
function repairMessages(previousAnswer: string, problems: readonly GenerationProblem[]): ModelMessage[] {
  return [
    { role: 'assistant', content: previousAnswer },
    {
      role: 'user',
      content: `Your answer has these problems:\n${describeProblems(problems)}\n\nAnswer again with the whole corrected JSON.`,
    },
  ];
}
