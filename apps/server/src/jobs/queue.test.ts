import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createTestDatabase, type TestApp } from '../test/harness.ts';
import type { JobState } from './job-payloads.ts';
import { defineJobKind, type JobKind, JobQueue } from './queue.ts';

const greet = defineJobKind({
  name: 'test-greet',
  run: async (payload: { name: string }) => ({ greeting: `Hello, ${payload.name}` }),
});

let flakyAttempts = 0;
const flaky = defineJobKind({
  name: 'test-flaky',
  retryDelaySeconds: 1,
  run: async () => {
    flakyAttempts += 1;
    if (flakyAttempts === 1) throw new Error('first attempt fails');
    return { attempts: flakyAttempts };
  },
});

const hopeless = defineJobKind({
  name: 'test-hopeless',
  retryLimit: 0,
  run: async () => {
    throw new Error('never works');
  },
});

/** Runs until aborted on its first attempt, and completes at once on later ones. */
const startedAttempts: number[] = [];
const patient = defineJobKind({
  name: 'test-patient',
  // No retries at all: a job handed back at shutdown must not use one up.
  retryLimit: 0,
  run: async (_payload: object, context) => {
    startedAttempts.push(Date.now());
    if (startedAttempts.length > 1) return { attempt: startedAttempts.length };
    await new Promise((_resolve, reject) => {
      context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true });
    });
  },
});

/** Stands for a connector export: each run pushes once, so a second run would push twice. */
let pushes = 0;
const push = defineJobKind({
  name: 'test-push',
  retryDelaySeconds: 1,
  run: async () => {
    pushes += 1;
    return { pushes };
  },
});

const kinds: JobKind[] = [
  greet as JobKind,
  flaky as JobKind,
  hopeless as JobKind,
  patient as JobKind,
  push as JobKind,
];

async function waitForState(app: TestApp, kind: JobKind<never>, id: string, status: JobState['status']) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = await app.jobs.state(kind.name, id);
    if (state?.status === status || Date.now() > deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the job queue', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  it('completes a job sent before a restart once the server is back', async () => {
    const database = await createTestDatabase({ persistent: true });

    const before = await buildTestApp({ database, jobKinds: kinds, config: { runJobWorkers: false } });
    const id = await before.jobs.send(greet.name, { name: 'Ada' });
    expect((await before.jobs.state(greet.name, id))?.status).toBe('in_progress');
    await before.close();

    const after = await buildTestApp({ database, jobKinds: kinds, config: { runJobWorkers: true } });
    apps.push(after);
    const state = await waitForState(after, greet, id, 'completed');
    expect(state).toMatchObject({ id, status: 'completed', output: { greeting: 'Hello, Ada' } });
  });

  it('hands a running job back when the server stops, for the next server to run at once without using a retry', async () => {
    const database = await createTestDatabase({ persistent: true });
    startedAttempts.length = 0;
    const before = await buildTestApp({ database, jobKinds: kinds, config: { runJobWorkers: true } });
    const id = await before.jobs.send(patient.name, {});
    const deadline = Date.now() + 20_000;
    while (startedAttempts.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(startedAttempts).toHaveLength(1);

    await before.jobs.stopWorking();
    expect(await before.jobs.state(patient.name, id)).toMatchObject({ status: 'in_progress', attempts: 1 });
    // Due at once: not after a retry delay (5 s) or a heartbeat timeout (30 s).
    // Both drivers answer { rows }; the database's type covers either, so it does not say.
    const { rows } = (await before.services.database.db.execute(
      sql`select start_after <= now() as due from pgboss.job where id = ${id}`,
    )) as { rows: { due: boolean }[] };
    expect(rows).toEqual([{ due: true }]);
    await before.close();

    const after = await buildTestApp({ database, jobKinds: kinds, config: { runJobWorkers: true } });
    apps.push(after);
    const state = await waitForState(after, patient, id, 'completed');
    expect(state).toMatchObject({ status: 'completed', output: { attempt: 2 }, attempts: 2 });
  });

  it('retries a failed attempt after its delay', async () => {
    flakyAttempts = 0;
    const app = await buildTestApp({ jobKinds: kinds, config: { runJobWorkers: true } });
    apps.push(app);
    const id = await app.jobs.send(flaky.name, {});
    const state = await waitForState(app, flaky, id, 'completed');
    expect(state).toMatchObject({ status: 'completed', output: { attempts: 2 } });
  });

  it('reports failed once retries are used up', async () => {
    const app = await buildTestApp({ jobKinds: kinds, config: { runJobWorkers: true } });
    apps.push(app);
    const id = await app.jobs.send(hopeless.name, {});
    const state = await waitForState(app, hopeless, id, 'failed');
    expect(state?.status).toBe('failed');
  });

  it('stores a finished job as completed before waking the workers, whose failure changes nothing', async () => {
    pushes = 0;
    const wakeUp = vi
      .spyOn(JobQueue.prototype as unknown as { wakeWorkers(name: string): Promise<void> }, 'wakeWorkers')
      .mockRejectedValueOnce(new Error('NOTIFY failed: the connection was lost'));
    try {
      const app = await buildTestApp({ jobKinds: kinds, config: { runJobWorkers: true } });
      apps.push(app);
      const id = await app.jobs.send(push.name, {});
      const state = await waitForState(app, push, id, 'completed');
      expect(wakeUp).toHaveBeenCalled();
      // A failed attempt would be retried after 1 s: give it the time to show.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(state).toMatchObject({ status: 'completed', output: { pushes: 1 }, attempts: 1 });
      expect(await app.jobs.state(push.name, id)).toMatchObject({ status: 'completed', attempts: 1 });
      expect(pushes).toBe(1);
    } finally {
      wakeUp.mockRestore();
    }
  });

  it('refuses a job kind that is not in its registry', async () => {
    const app = await buildTestApp({ jobKinds: [greet as JobKind] });
    apps.push(app);
    await expect(app.jobs.send(flaky.name, {})).rejects.toThrow('Job kind test-flaky is not in the registry');
  });
});
