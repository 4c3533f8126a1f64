/**
 * A render pool's worker thread: runs the templates of one task at a time, within the time budget
 * the task brings, and writes which input and component instance it is rendering into the shared
 * `progress` array, so that the pool can name the component if it has to terminate this thread.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { PooledDesignSystem, RenderTask, RenderTaskResult } from './render-tasks.ts';

// On Linux a nice value belongs to one thread: renders (and loading the renderer, hence the
// imports below come after) give way to the event loop, which keeps answering requests on a busy
// machine. Elsewhere it would lower the whole process: left alone there.
if (process.platform === 'linux') setPriority(10);
const { LruCache, render, renderFeedUrl, renderProblemsWithDefaults, startRenderBudget } = await import(
  '@letterset/core'
);
const { containerProgress } = await import('./render-tasks.ts');

const progress = (workerData as { progress: Int32Array }).progress;
const now = () => performance.now();
/**
 * Design systems by the key the pool gave them (a new key for every change), so that a request
 * sends only its content; the parsed templates themselves are cached by core, by their text.
 */
const keptDesignSystems = new LruCache<string, PooledDesignSystem>(64);

function run(task: RenderTask): RenderTaskResult {
  const budget = startRenderBudget(task.budgetMs, now);
  if (task.kind === 'feed_url') {
    try {
      return { kind: task.kind, url: renderFeedUrl(task.template, task.parameters, task.budgetMs) };
    } catch (error) {
      // A template problem (a Liquid error, its own time limit): the feed's run reports it.
      return { kind: task.kind, error: error instanceof Error ? error.message : String(error) };
    }
  }
  if (task.kind === 'design_system_defaults') {
    return { kind: task.kind, problems: renderProblemsWithDefaults({ ...task.input, budget }) };
  }
  for (const [key, designSystem] of Object.entries(task.keep)) keptDesignSystems.set(key, designSystem);
  const systemOf = (input: (typeof task.inputs)[number]) =>
    typeof input.designSystem === 'string' ? keptDesignSystems.get(input.designSystem) : input.designSystem;
  const lacking = task.inputs.flatMap((input) =>
    typeof input.designSystem === 'string' && !systemOf(input) ? [input.designSystem] : [],
  );
  if (lacking.length > 0) return { kind: 'render_lacks', keys: lacking };
  const outputs = task.inputs.map((input, index) => {
    Atomics.store(progress, 0, index);
    const output = render({
      ...input,
      ...(systemOf(input) as PooledDesignSystem),
      budget,
      onInstanceStart: (position) =>
        Atomics.store(progress, 1, position === -1 ? containerProgress : position),
    });
    return {
      html: output.html,
      subject: output.subject,
      preheader: output.preheader,
      diagnostics: output.diagnostics,
      // Made here only when asked: html-to-text costs several times the render itself.
      ...(task.plainText ? { plainText: output.plainText } : {}),
    };
  });
  return { kind: task.kind, outputs };
}

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs as a worker thread of the render pool');
port.on('message', (task: RenderTask) => {
  try {
    port.postMessage({ result: run(task) });
  } catch (error) {
    // A bug in Letterset, not a template problem (those are diagnostics): the request fails as such.
    port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
port.postMessage({ ready: true });
