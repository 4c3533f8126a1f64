import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './db/client.ts';
import { sessionCookieName } from './http/openapi.ts';
import { createFileStorage } from './storage/index.ts';
import { type ChildServer, startChildServer } from './test/child-server.ts';
import { EventStreamReader } from './test/event-stream-client.ts';
import { createTestOrganization, createTestUser, type TestOrganization } from './test/factories.ts';
import { createTestDatabase, type TestDatabase, testConfig } from './test/harness.ts';

/** One HTTP request on its own agent, so a test decides which connections are reused. */
function request(
  url: string,
  options: { agent?: http.Agent } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.get(url, { agent: options.agent ?? false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
  });
}

async function eventually<T>(
  attempt: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const children: ChildServer[] = [];
async function start(environment: Record<string, string>): Promise<ChildServer> {
  const child = await startChildServer(environment);
  children.push(child);
  return child;
}
async function stopAll(): Promise<void> {
  for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
  await Promise.all(children.map((child) => child.exited));
}
afterAll(stopAll);

describe('a server process shutting down on SIGTERM', () => {
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase({ persistent: true });
  });
  const environment = () => testDatabase.processEnvironment ?? {};

  it('finishes the request under way, refuses new connections, and exits 0 within its bound', async () => {
    const shutdownTimeoutMs = 10_000;
    const server = await start({ ...environment(), SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs) });
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 2 });
    try {
      // An idle keep-alive connection, and a slow request on another one.
      expect((await request(`${server.url}/healthz`, { agent: keepAlive })).status).toBe(200);
      const slow = request(`${server.url}/test/slow?ms=3000`, { agent: keepAlive });
      await server.waitForLine((line) => line.slow_request_started === true);

      const signalled = performance.now();
      server.process.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(request(`${server.url}/healthz`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

      const answer = await slow;
      expect(answer).toMatchObject({ status: 200, body: JSON.stringify({ waited_ms: 3000 }) });
      expect(answer.headers.connection).toBe('close');
      const exit = await server.exited;
      const exitedAfterMs = performance.now() - signalled;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(exitedAfterMs).toBeLessThan(shutdownTimeoutMs);
      console.info(`shutdown: exited ${Math.round(exitedAfterMs)} ms after SIGTERM, a 3 s request under way`);
    } finally {
      keepAlive.destroy();
    }
  }, 120_000);

  it('cuts what is left when its bound runs out, and exits 1', async () => {
    const server = await start({ ...environment(), SHUTDOWN_TIMEOUT_MS: '1500' });
    const endless = request(`${server.url}/test/slow?ms=60000`);
    endless.catch(() => {});
    await server.waitForLine((line) => line.slow_request_started === true);

    const signalled = performance.now();
    server.process.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(performance.now() - signalled).toBeLessThan(5_000);
    await expect(endless).rejects.toThrow();
  }, 120_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('several server processes on one PostgreSQL database', () => {
  let database: Extract<DatabaseHandle, { driver: 'postgres' }>;
  let organization: TestOrganization;
  let environment: Record<string, string>;
  let apiA: ChildServer;
  let apiB: ChildServer;
  const workers: ChildServer[] = [];
  const workerEnvironment = () => ({ ...environment, SERVE_API: 'false', SHUTDOWN_TIMEOUT_MS: '10000' });

  beforeAll(async () => {
    const testDatabase = await createTestDatabase();
    const handle = await testDatabase.open();
    if (handle.driver !== 'postgres' || !testDatabase.processEnvironment) throw new Error('PostgreSQL only');
    database = handle;
    environment = { ...testDatabase.processEnvironment, JOB_HEARTBEAT_SECONDS: '10' };
    await database.pool.query(`
      create table test_job_attempts (
        id serial primary key, job_id uuid not null, label text not null, pid integer not null,
        started_at timestamptz not null default clock_timestamp(), finished_at timestamptz);
      create table test_job_gates (label text primary key);`);
    organization = await createTestOrganization({
      services: { database, storage: createFileStorage(testConfig().storage) },
    });
    const [a, b, worker] = await Promise.all([
      start({ ...environment, RUN_JOB_WORKERS: 'false' }),
      start({ ...environment, RUN_JOB_WORKERS: 'false' }),
      start(workerEnvironment()),
    ]);
    apiA = a;
    apiB = b;
    workers.push(worker);
  }, 180_000);
  afterAll(async () => {
    await stopAll();
    await database?.close();
  });

  async function call(
    server: ChildServer,
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown } = {},
  ) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        // Writes with a session cookie must come from the server's own origin.
        origin: server.url,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
      response,
    };
  }

  async function signIn(server: ChildServer, email: string, password: string) {
    const { status, response } = await call(server, 'POST', '/api/v1/session', { body: { email, password } });
    expect(status).toBe(200);
    const cookie = response.headers
      .getSetCookie()
      .find((header) => header.startsWith(`${sessionCookieName}=`));
    return { cookie: cookie?.split(';')[0] ?? '' };
  }

  const admin = () => signIn(apiA, organization.admin.email, organization.admin.password);

  async function attempts(label: string) {
    const { rows } = await database.pool.query<{ job_id: string; pid: number; finished: boolean }>(
      'select job_id, pid, finished_at is not null as finished from test_job_attempts where label = $1 order by id',
      [label],
    );
    return rows;
  }

  const openGate = (label: string) => database.pool.query('insert into test_job_gates values ($1)', [label]);
  const jobState = async (id: string) => (await call(apiA, 'GET', `/test/jobs/${id}`)).body;

  /** From the refusing write's answer on one process to the first refusal on the other. */
  async function timeToRefusal(
    server: ChildServer,
    path: string,
    headers: Record<string, string>,
    status: number,
  ) {
    const started = performance.now();
    let requests = 0;
    for (;;) {
      requests += 1;
      if ((await call(server, 'GET', path, { headers })).status === status) {
        return { ms: performance.now() - started, requests };
      }
      if (performance.now() - started > 10_000) throw new Error(`${path} never answered ${status}`);
    }
  }

  it('a worker-only process answers the health checks and serves no API', async () => {
    const [worker] = workers as [ChildServer];
    expect((await call(worker, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect(await call(worker, 'GET', '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'ready', database: { driver: 'postgres', reachable: true, pending_migrations: 0 } },
    });
    expect((await call(worker, 'GET', '/api/v1/me')).status).toBe(404);
  });

  it('a session or an API key made on one API process works on the other', async () => {
    const session = await admin();
    expect(await call(apiB, 'GET', '/api/v1/me', { headers: session })).toMatchObject({
      status: 200,
      body: { user: { email: organization.admin.email } },
    });
    const created = await call(apiB, 'POST', '/api/v1/api_keys', { headers: session, body: { name: 'CI' } });
    expect(created.status).toBe(200);
    const key = { authorization: `Bearer ${created.body?.key}` };
    expect((await call(apiA, 'GET', '/api/v1/me', { headers: key })).status).toBe(200);
  });

  it('a change made through one process reaches the viewers of the email on the other within a second', async () => {
    const session = await admin();
    const base = `/api/v1/workspaces/${organization.workspaceId}`;
    const systems = await call(apiA, 'GET', `${base}/email_design_systems`, { headers: session });
    const starter = ((systems.body?.results ?? []) as { id: number; name: string }[]).find(
      (system) => system.name === 'Letterset Starter',
    );
    const team = await call(apiA, 'POST', '/api/v1/teams', {
      headers: session,
      body: { name: 'Live team', workspace_id: organization.workspaceId, badge_color: 'blue' },
    });
    const project = await call(apiA, 'POST', `${base}/projects`, {
      headers: session,
      body: { name: 'Live project', team_id: team.body?.id },
    });
    const email = await call(apiA, 'POST', `${base}/emails`, {
      headers: session,
      body: { name: 'Live', email_design_system_id: starter?.id, project_id: project.body?.id },
    });
    const stream = await fetch(`${apiB.url}${base}/emails/${email.body?.id}/events`, { headers: session });
    const viewer = new EventStreamReader(stream);
    try {
      await viewer.next('ready');
      const renamed = await call(apiA, 'PATCH', `${base}/emails/${email.body?.id}`, {
        headers: session,
        body: { name: 'Live, renamed' },
      });
      expect(renamed.status).toBe(200);
      const heard = await viewer.next('content_changed', 1_000);
      expect(heard.data).toEqual({
        type: 'content_changed',
        email_id: email.body?.id,
        lock_version: renamed.body?.lock_version,
      });
    } finally {
      await viewer.close();
    }
  });

  it('revoking an API key on one process refuses it on the other at once', async () => {
    const session = await admin();
    const timings: number[] = [];
    let refusedOnFirstRequest = 0;
    for (let round = 0; round < 10; round++) {
      const created = await call(apiA, 'POST', '/api/v1/api_keys', {
        headers: session,
        body: { name: `k${round}` },
      });
      const key = { authorization: `Bearer ${created.body?.key}` };
      // Process B remembers the key for 5 s from here: only the notification can refuse it sooner.
      expect((await call(apiB, 'GET', '/api/v1/me', { headers: key })).status).toBe(200);
      expect(
        (await call(apiA, 'DELETE', `/api/v1/api_keys/${created.body?.id}`, { headers: session })).status,
      ).toBe(204);
      const refusal = await timeToRefusal(apiB, '/api/v1/me', key, 401);
      timings.push(refusal.ms);
      if (refusal.requests === 1) refusedOnFirstRequest += 1;
    }
    timings.sort((a, b) => a - b);
    console.info(
      `key revocation → first 401 on the other process, 10 rounds: min ${timings[0]?.toFixed(1)} ms, ` +
        `median ${timings[5]?.toFixed(1)} ms, max ${timings[9]?.toFixed(1)} ms (cache time-to-live 5000 ms); ` +
        `the very first request was refused in ${refusedOnFirstRequest} of 10`,
    );
    expect(timings[9]).toBeLessThan(1_000);
  });

  it('removing a user or changing their role on one process takes effect on the other at once', async () => {
    const session = await admin();
    const removed = await createTestUser(
      { services: { database, storage: createFileStorage(testConfig().storage) } },
      organization,
      { role: 'Editor' },
    );
    const removedSession = await signIn(apiA, removed.email, removed.password);
    expect((await call(apiB, 'GET', '/api/v1/me', { headers: removedSession })).status).toBe(200);
    expect((await call(apiA, 'DELETE', `/api/v1/users/${removed.id}`, { headers: session })).status).toBe(
      204,
    );
    const removal = await timeToRefusal(apiB, '/api/v1/me', removedSession, 401);

    const demoted = await createTestUser(
      { services: { database, storage: createFileStorage(testConfig().storage) } },
      organization,
      { role: 'Admin' },
    );
    const demotedSession = await signIn(apiB, demoted.email, demoted.password);
    expect((await call(apiB, 'GET', '/api/v1/audit_logs', { headers: demotedSession })).status).toBe(200);
    const changed = await call(apiA, 'PATCH', `/api/v1/users/${demoted.id}`, {
      headers: session,
      body: { role_id: organization.roleIds.Viewer },
    });
    expect(changed.status).toBe(200);
    const demotion = await timeToRefusal(apiB, '/api/v1/audit_logs', demotedSession, 403);
    console.info(
      `user removal → 401 after ${removal.ms.toFixed(1)} ms; role change → 403 after ${demotion.ms.toFixed(1)} ms`,
    );
    expect(Math.max(removal.ms, demotion.ms)).toBeLessThan(1_000);
  });

  it('counts sign-in failures across the processes, not per process', async () => {
    const user = await createTestUser(
      { services: { database, storage: createFileStorage(testConfig().storage) } },
      organization,
    );
    // An address has five free tries per account: three land on one process, two on the other.
    for (let failure = 0; failure < 5; failure++) {
      const server = failure % 2 === 0 ? apiA : apiB;
      const wrong = await call(server, 'POST', '/api/v1/session', {
        body: { email: user.email, password: 'guess' },
      });
      expect(wrong.status).toBe(401);
    }
    // Counted per process, the second would have seen two failures and checked the password again.
    for (const server of [apiB, apiA]) {
      const slowed = await call(server, 'POST', '/api/v1/session', {
        body: { email: user.email, password: 'guess' },
      });
      expect(slowed.status).toBe(429);
      expect(Number(slowed.response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('runs each job exactly once, whichever API process sent it and however many workers compete', async () => {
    workers.push(await start(workerEnvironment()));
    const labels = Array.from({ length: 20 }, (_, index) => `once-${index}`);
    for (const label of labels) await openGate(label);
    const ids: string[] = [];
    for (const [index, label] of labels.entries()) {
      const sent = await call(index % 2 === 0 ? apiA : apiB, 'POST', '/test/jobs', { body: { label } });
      ids.push(String(sent.body?.id));
    }
    for (const id of ids) {
      await eventually(
        async () => ((await jobState(id))?.status === 'completed' ? true : undefined),
        60_000,
        id,
      );
    }
    const workerPids = new Set(workers.map((worker) => worker.pid));
    const byJob = new Map<string, number>();
    for (const label of labels) {
      for (const attempt of await attempts(label)) {
        expect(attempt.finished).toBe(true);
        expect(workerPids.has(attempt.pid)).toBe(true);
        byJob.set(attempt.job_id, (byJob.get(attempt.job_id) ?? 0) + 1);
      }
    }
    expect([...byJob.keys()].sort()).toEqual([...ids].sort());
    expect([...byJob.values()].every((count) => count === 1)).toBe(true);
  }, 180_000);

  it('SIGTERM on a worker hands its running job back, and the other worker takes it at once', async () => {
    const sent = await call(apiA, 'POST', '/test/jobs', { body: { label: 'handback' } });
    const id = String(sent.body?.id);
    const [first] = await eventually(
      async () => {
        const rows = await attempts('handback');
        return rows.length > 0 ? rows : undefined;
      },
      30_000,
      'the job starting',
    );
    const holder = workers.find((worker) => worker.pid === first?.pid) as ChildServer;
    const other = workers.find((worker) => worker !== holder) as ChildServer;

    const signalled = performance.now();
    holder.process.kill('SIGTERM');
    const [, second] = await eventually(
      async () => {
        const rows = await attempts('handback');
        return rows.length > 1 ? rows : undefined;
      },
      30_000,
      'the job starting again',
    );
    const takenAfterMs = performance.now() - signalled;
    expect(second?.pid).toBe(other.pid);
    expect(await holder.exited).toEqual({ code: 0, signal: null });
    workers.splice(workers.indexOf(holder), 1);
    console.info(`SIGTERM → the other worker started the job after ${takenAfterMs.toFixed(0)} ms`);
    // A heartbeat timeout would take 10 s or more.
    expect(takenAfterMs).toBeLessThan(5_000);

    await openGate('handback');
    await eventually(
      async () => ((await jobState(id))?.status === 'completed' ? true : undefined),
      30_000,
      id,
    );
    expect((await attempts('handback')).map((attempt) => attempt.finished)).toEqual([false, true]);
  }, 120_000);

  it('kill -9 of the worker mid-job: the restarted worker finishes it, and it never stays in progress', async () => {
    const sent = await call(apiB, 'POST', '/test/jobs', { body: { label: 'crash' } });
    const id = String(sent.body?.id);
    await eventually(async () => ((await attempts('crash')).length > 0 ? true : undefined), 30_000, 'start');
    const [crashed] = workers.splice(0) as [ChildServer];
    const killed = performance.now();
    crashed.process.kill('SIGKILL');
    expect((await crashed.exited).signal).toBe('SIGKILL');
    expect(await jobState(id)).toMatchObject({ status: 'in_progress' });

    await openGate('crash');
    workers.push(await start(workerEnvironment()));
    const state = await eventually(
      async () => {
        const current = await jobState(id);
        return current?.status === 'completed' ? current : undefined;
      },
      90_000,
      'completion after the crash',
    );
    console.info(
      `kill -9 → completed by the restarted worker ${((performance.now() - killed) / 1000).toFixed(1)} s later ` +
        '(heartbeat 10 s, checked every 5 s, plus the restart)',
    );
    expect(state).toMatchObject({ status: 'completed', output: { pid: workers[0]?.pid } });
    expect(await attempts('crash')).toEqual([
      expect.objectContaining({ pid: crashed.pid, finished: false }),
      expect.objectContaining({ pid: workers[0]?.pid, finished: true }),
    ]);
  }, 180_000);
});
