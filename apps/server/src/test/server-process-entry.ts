/**
 * A Letterset server process for the multi-process tests: the production start-up and shutdown
 * (`startServerProcess`, `stopOnSignals`), configured from the environment like `main.ts`, plus a
 * job kind and a few routes of the tests' own:
 *
 * - job kind `test-recorded-work` ({label}): records each attempt in `test_job_attempts` (a table
 *   the test creates), then waits until the test inserts its label into `test_job_gates`;
 * - `POST /test/jobs` {label} sends one, `GET /test/jobs/:id` reads its state;
 * - `GET /test/slow?ms=N` answers after N ms, and prints `{"slow_request_started":true}` when it
 *   starts, so a test can signal the process with the request under way.
 *
 * Prints `{"listening": url, "pid": n}` once it listens.
 */
import { sql } from 'drizzle-orm';
import type { App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { defineJobKind, type JobKind } from '../jobs/queue.ts';
import { startServerProcess, stopOnSignals } from '../server-process.ts';

const gatePollMs = 50;

/** Both drivers answer raw SQL with `rows`; Drizzle types the answer per driver, here unknown. */
const rowsOf = (result: unknown) => (result as { rows: { id?: number }[] }).rows;

const recordedWork = defineJobKind({
  name: 'test-recorded-work',
  retryDelaySeconds: 1,
  run: async (payload: { label: string }, { services, jobId, signal }) => {
    const db = services.database.db;
    const [attempt] = rowsOf(
      await db.execute(
        sql`insert into test_job_attempts (job_id, label, pid) values (${jobId}, ${payload.label}, ${process.pid}) returning id`,
      ),
    );
    for (;;) {
      signal.throwIfAborted();
      const open = await db.execute(sql`select 1 from test_job_gates where label = ${payload.label}`);
      if (rowsOf(open).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, gatePollMs));
    }
    await db.execute(sql`update test_job_attempts set finished_at = now() where id = ${attempt?.id}`);
    return { pid: process.pid };
  },
});

async function testRoutes(app: App): Promise<void> {
  app.post<{ Body: { label: string } }>('/test/jobs', async (request) => ({
    id: await app.jobs.send(recordedWork.name, { label: request.body.label }),
  }));
  app.get<{ Params: { id: string } }>('/test/jobs/:id', async (request, reply) => {
    const state = await app.jobs.state(recordedWork.name, request.params.id);
    return state ?? reply.code(404).send({ message: 'Not found' });
  });
  app.get<{ Querystring: { ms: string } }>('/test/slow', async (request) => {
    const ms = Number(request.query.ms);
    process.stdout.write(`${JSON.stringify({ slow_request_started: true })}\n`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { waited_ms: ms };
  });
}

const server = await startServerProcess(loadConfig(), {
  dependencies: { jobKinds: [recordedWork as JobKind] },
  extend: testRoutes,
});
stopOnSignals(server);
process.stdout.write(`${JSON.stringify({ listening: server.url, pid: process.pid })}\n`);
