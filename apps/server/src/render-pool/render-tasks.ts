import type { Diagnostic, RenderInput, renderProblemsWithDefaults } from '@letterset/core';

/** A render's input as it crosses to a worker: data only (the worker adds the budget and clock). */
export type PooledRenderInput = Omit<RenderInput, 'budget' | 'onInstanceStart'>;

type DefaultsInput = Omit<Parameters<typeof renderProblemsWithDefaults>[0], 'budget'>;
export type DefaultsProblems = ReturnType<typeof renderProblemsWithDefaults>;

/** What a worker is asked to do; `budgetMs` is shared by everything in the task. */
export type RenderTask =
  | { kind: 'render'; budgetMs: number; inputs: PooledRenderInput[]; plainText: boolean }
  | { kind: 'design_system_defaults'; budgetMs: number; input: DefaultsInput }
  | { kind: 'feed_url'; budgetMs: number; template: string; parameters: Record<string, string> };

export interface WorkerRenderOutput {
  html: string;
  subject: string;
  preheader: string;
  diagnostics: Diagnostic[];
  plainText?: string;
}

export type RenderTaskResult =
  | { kind: 'render'; outputs: WorkerRenderOutput[] }
  | { kind: 'design_system_defaults'; problems: DefaultsProblems }
  | { kind: 'feed_url'; url: string }
  | { kind: 'feed_url'; error: string };

/**
 * The worker's shared progress array: [index of the input rendering, instance rendering], the
 * instance being its index in `content.component_instances`, or `containerProgress` for the
 * container; -1 before anything started.
 */
export const progressLength = 2;
export const containerProgress = -2;
