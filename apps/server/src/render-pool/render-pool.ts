import {
  budgetExceededMessage,
  type Diagnostic,
  diagnosticCodes,
  LruCache,
  type RenderOutput,
  toPlainText,
} from '@letterset/core';
import {
  containerProgress,
  type DefaultsProblems,
  type PooledDesignSystem,
  type PooledRenderInput,
  progressLength,
  type RenderTask,
  type RenderTaskResult,
  type WorkerRenderOutput,
} from './render-tasks.ts';
import { type TaskOutcome, WorkerPool } from './worker-pool.ts';

/**
 * The time one request (or one job step) may spend rendering templates, shared by all its renders:
 * each render spends what it took. Time spent waiting for a free worker is not spent.
 */
export class RenderBudget {
  readonly totalMs: number;
  remainingMs: number;
  constructor(totalMs: number) {
    this.totalMs = totalMs;
    this.remainingMs = totalMs;
  }
}

/** What services render through: user templates never run on the event loop. */
export interface Renderer {
  /** A fresh budget of the configured size, for one request or job step. */
  budget(): RenderBudget;
  /**
   * Renders each input (the locales of one request, say) in a worker, within `budget`. Template
   * problems, an overrun budget included, come back as diagnostics naming the component, as
   * core's `render` reports them. `plainText: true` makes the plain text in the worker; otherwise
   * it is made here if read.
   */
  render(
    inputs: PooledRenderInput[],
    budget: RenderBudget,
    options?: { plainText?: boolean },
  ): Promise<RenderOutput[]>;
  /** A feed's URL template over the parameters typed in the editor: the URL, or why it did not render. */
  feedUrl(
    template: string,
    parameters: Record<string, string>,
    budget: RenderBudget,
  ): Promise<{ url: string } | { error: string }>;
  /** Core's `renderProblemsWithDefaults` in a worker (AI design-system generation). */
  designSystemDefaults(
    input: Extract<RenderTask, { kind: 'design_system_defaults' }>['input'],
    budget: RenderBudget,
  ): Promise<DefaultsProblems>;
}

export interface RenderPool extends Renderer {
  close(): Promise<void>;
}

/**
 * Past the budget a worker stops its templates itself; this grace covers the rest of its task
 * (CSS inlining, plain text, handing the answer back, a busy machine's scheduling) before the
 * pool terminates it.
 */
const graceMs = (budgetMs: number) => 500 + budgetMs / 4;

export function createRenderPool(options: { threads: number; budgetMs: number }): RenderPool {
  const pool = new WorkerPool({
    size: options.threads,
    workerUrl: new URL('./render-worker.ts', import.meta.url),
    progressLength,
  });

  async function runTask(task: RenderTask, budget: RenderBudget): Promise<TaskOutcome<RenderTaskResult>> {
    const outcome = await pool.run<RenderTaskResult>(task, task.budgetMs + graceMs(task.budgetMs));
    budget.remainingMs -= outcome.elapsedMs;
    return outcome;
  }

  /**
   * Keys some worker was sent: a key never sent goes with its design system at once. Otherwise
   * only the key goes, and a worker that does not keep it (another worker got it, or a
   * replacement) asks, and the task goes again with the systems.
   */
  const keysSent = new LruCache<string, true>(256);
  async function runRender(
    inputs: PooledRenderInput[],
    budget: RenderBudget,
    plainText: boolean,
  ): Promise<TaskOutcome<RenderTaskResult>> {
    const keyed = new Map<string, PooledDesignSystem>();
    const taskInputs = inputs.map(({ designSystem, components, designSystemKey, ...rest }) => {
      if (designSystemKey === undefined) return { ...rest, designSystem: { designSystem, components } };
      keyed.set(designSystemKey, { designSystem, components });
      return { ...rest, designSystem: designSystemKey };
    });
    const unsent = [...keyed].filter(([key]) => !keysSent.get(key));
    for (const [key] of unsent) keysSent.set(key, true);
    const task = (keep: Record<string, PooledDesignSystem>): RenderTask => ({
      kind: 'render',
      budgetMs: budget.remainingMs,
      inputs: taskInputs,
      keep,
      plainText,
    });
    const outcome = await runTask(task(Object.fromEntries(unsent)), budget);
    if (outcome.kind !== 'done' || outcome.result.kind !== 'render_lacks') return outcome;
    if (budget.remainingMs <= 0) return { kind: 'overran', progress: [-1, -1], elapsedMs: 0, message: '' };
    return runTask(task(Object.fromEntries(keyed)), budget);
  }

  return {
    budget: () => new RenderBudget(options.budgetMs),
    async render(inputs, budget, renderOptions = {}) {
      if (inputs.length === 0) return [];
      if (budget.remainingMs <= 0) return inputs.map(() => failedOutput(budgetRanOut(budget, null)));
      const outcome = await runRender(inputs, budget, renderOptions.plainText === true);
      if (outcome.kind === 'done' && outcome.result.kind === 'render')
        return outcome.result.outputs.map(withPlainText);
      const [inputIndex = -1, position = -1] = outcome.kind === 'done' ? [] : outcome.progress;
      return inputs.map((input, index) => {
        if (outcome.kind === 'done') throw new Error('a render task answered with another kind');
        const where = index === inputIndex ? instanceAt(input, position) : null;
        return failedOutput(
          outcome.kind === 'overran'
            ? budgetRanOut(budget, where)
            : {
                code: /memory/i.test(outcome.message)
                  ? diagnosticCodes.memoryLimit
                  : diagnosticCodes.renderError,
                severity: 'error',
                message: `rendering stopped: ${outcome.message}`,
                ...where,
              },
        );
      });
    },
    async feedUrl(template, parameters, budget) {
      if (budget.remainingMs <= 0) return { error: budgetExceededMessage(budget.totalMs) };
      const outcome = await runTask(
        { kind: 'feed_url', budgetMs: budget.remainingMs, template, parameters },
        budget,
      );
      if (outcome.kind === 'overran') return { error: budgetExceededMessage(budget.totalMs) };
      if (outcome.kind !== 'done') return { error: `rendering stopped: ${outcome.message}` };
      if (outcome.result.kind !== 'feed_url') throw new Error('a feed URL task answered with another kind');
      return outcome.result;
    },
    async designSystemDefaults(input, budget) {
      const everyTemplate = (message: string): DefaultsProblems => ({
        container: [message],
        components: input.components.map(() => [message]),
      });
      if (budget.remainingMs <= 0) return everyTemplate(budgetExceededMessage(budget.totalMs));
      const outcome = await runTask(
        { kind: 'design_system_defaults', budgetMs: budget.remainingMs, input },
        budget,
      );
      if (outcome.kind === 'done') {
        if (outcome.result.kind !== 'design_system_defaults') throw new Error('a task answered another kind');
        return outcome.result.problems;
      }
      // Which template ran away is not known here: each is reported, so the next answer fixes them.
      return everyTemplate(
        outcome.kind === 'overran'
          ? budgetExceededMessage(budget.totalMs)
          : `rendering stopped: ${outcome.message}`,
      );
    },
    close: () => pool.close(),
  };
}

type InstanceRef = Pick<Diagnostic, 'componentInstanceId' | 'componentName'>;

/** The component instance a worker was rendering when it was stopped, from its progress. */
function instanceAt(input: PooledRenderInput, position: number): InstanceRef | null {
  const instance =
    position === containerProgress
      ? input.content.container_component_instance
      : input.content.component_instances[position];
  if (!instance) return null;
  const component = input.components.find((candidate) => candidate.id === instance.component_id);
  return { componentInstanceId: instance.id, ...(component ? { componentName: component.name } : {}) };
}

function budgetRanOut(budget: RenderBudget, where: InstanceRef | null): Diagnostic {
  return {
    code: diagnosticCodes.renderLimit,
    severity: 'error',
    message: budgetExceededMessage(budget.totalMs),
    ...where,
  };
}

function failedOutput(diagnostic: Diagnostic): RenderOutput {
  return { html: '', subject: '', preheader: '', plainText: '', diagnostics: [diagnostic] };
}

/** A worker's output as core's: the plain text, when the worker did not make it, is made on first read. */
function withPlainText(output: WorkerRenderOutput): RenderOutput {
  if (output.plainText !== undefined) return output as RenderOutput;
  let plainText: string | undefined;
  return Object.defineProperty(output, 'plainText', {
    enumerable: true,
    configurable: true,
    get: () => {
      plainText ??= toPlainText(output.html);
      return plainText;
    },
  }) as RenderOutput;
}
