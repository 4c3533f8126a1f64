import type { Diagnostic, RenderInput, renderProblemsWithDefaults } from '@letterset/core';

/**
 * A render's input as given to the pool: data only (the worker adds the budget and clock).
 * `designSystemKey` names this design system and components exactly as they are (its id and the
 * load they came from, say), so that a worker keeping them under that key is not sent them again:
 * a changed design system must come with another key. Without a key they go with every task.
 */
export type PooledRenderInput = Omit<RenderInput, 'budget' | 'onInstanceStart'> & {
  designSystemKey?: string;
};

/** What a worker keeps per design-system key: everything of a render input that is the system's. */
export type PooledDesignSystem = Pick<RenderInput, 'designSystem' | 'components'>;

/** A render input as it crosses to a worker: its design system inline, or the key of one the worker keeps. */
export type RenderTaskInput = Omit<PooledRenderInput, 'designSystem' | 'components' | 'designSystemKey'> & {
  designSystem: PooledDesignSystem | string;
};

type DefaultsInput = Omit<Parameters<typeof renderProblemsWithDefaults>[0], 'budget'>;
export type DefaultsProblems = ReturnType<typeof renderProblemsWithDefaults>;

/** What a worker is asked to do; `budgetMs` is shared by everything in the task. */
export type RenderTask =
  | {
      kind: 'render';
      budgetMs: number;
      inputs: RenderTaskInput[];
      /** Design systems for the worker to keep under their keys, before it renders. */
      keep: Record<string, PooledDesignSystem>;
      plainText: boolean;
    }
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
  /** Nothing rendered: the task named design systems by keys this worker does not keep (any more). */
  | { kind: 'render_lacks'; keys: string[] }
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
