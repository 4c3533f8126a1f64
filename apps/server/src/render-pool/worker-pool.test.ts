import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from './worker-pool.ts';

const workerUrl = new URL('./worker-pool.fixture-worker.ts', import.meta.url);
const pools: WorkerPool[] = [];
function pool(size: number) {
  const created = new WorkerPool({ size, workerUrl, progressLength: 2 });
  pools.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close()));
});

describe('WorkerPool', () => {
  it('runs tasks in worker threads and answers their results', async () => {
    const workers = pool(2);
    const outcomes = await Promise.all([1, 2, 3].map((echo) => workers.run<number>({ echo }, 10_000)));
    expect(outcomes.map((outcome) => (outcome.kind === 'done' ? outcome.result : null))).toEqual([1, 2, 3]);
  });

  it('terminates a task past its time limit, says where it was, and runs the next task on a new worker', async () => {
    const workers = pool(1);
    // Warm the worker first: its start-up is never timed.
    await workers.run({ echo: 'warm' }, 10_000);
    const started = performance.now();
    const overran = await workers.run({ spinForever: true }, 200);
    expect(overran).toMatchObject({ kind: 'overran', progress: [7, -1] });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await workers.run({ echo: 'after' }, 10_000)).toMatchObject({ kind: 'done', result: 'after' });
  });

  it('a task that overruns costs nobody else: the other worker answers meanwhile', async () => {
    const workers = pool(2);
    await Promise.all([workers.run({ echo: 1 }, 10_000), workers.run({ echo: 2 }, 10_000)]);
    const runaway = workers.run({ spinForever: true }, 1_500);
    const started = performance.now();
    expect(await workers.run({ echo: 'meanwhile' }, 10_000)).toMatchObject({ result: 'meanwhile' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await runaway).toMatchObject({ kind: 'overran' });
  });

  it('reports a worker that died during a task, and rejects a task that failed in the worker', async () => {
    const workers = pool(1);
    expect(await workers.run({ exit: true }, 10_000)).toMatchObject({ kind: 'crashed' });
    await expect(workers.run({ fail: 'broken' }, 10_000)).rejects.toThrow('broken');
    expect(await workers.run({ echo: 'still here' }, 10_000)).toMatchObject({ result: 'still here' });
  });

  it('refuses work once closed', async () => {
    const workers = pool(1);
    await workers.run({ echo: 1 }, 10_000);
    await workers.close();
    await expect(workers.run({ echo: 2 }, 10_000)).rejects.toThrow('closed');
  });
});
