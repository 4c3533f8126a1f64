import type { FastifyBaseLogger } from 'fastify';
import { fromPglite, type Job, PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '../db/client.ts';
import type { Services } from '../services.ts';
import type { JobSender, JobState, JobStatus } from './job-payloads.ts';

/** What a job handler may use besides its payload. */
export interface JobContext {
  /** The services of the server the job runs in, all ready before any worker starts. */
  services: Services;
  /** The job's own logger (its kind and id on every line). */
  log: FastifyBaseLogger;
  jobId: string;
  /**
   * Aborted when the job expires or the process shuts down. A handler that stops on it (throws)
   * during a shutdown has its job handed back to the queue, to run again from the start on a live
   * worker, without using up a retry: handlers must be safe to run again.
   */
  signal: AbortSignal;
}

/**
 * One kind of background work. Payloads are JSON; the handler's result is kept as the job's
 * output. A thrown error is retried after `retryDelaySeconds`, up to `retryLimit` times.
 */
export interface JobKind<Payload extends object = object, Result = unknown> {
  /** A `JobName` for the server's own kinds (tests register others). */
  name: string;
  run(payload: Payload, context: JobContext): Promise<Result>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How long one attempt may take before it counts as failed and is retried. */
  expireInSeconds?: number;
  /** How many jobs of this kind one process runs at once (1 unless said). */
  concurrency?: number;
}

export function defineJobKind<Payload extends object, Result>(
  kind: JobKind<Payload, Result>,
): JobKind<Payload, Result> {
  return kind;
}

export interface JobQueueOptions {
  log: FastifyBaseLogger;
  /**
   * A worker that stops sending heartbeats (its process crashed) loses its job after this many
   * seconds (pg-boss allows 10 or more); the job then runs again on a live worker, so nothing
   * stays "in progress". Every process checks for such jobs every half of it.
   */
  heartbeatSeconds?: number;
}

/** pg-boss's own schema and the SQL expression of its NOTIFY channel (pg-boss 12.35, pinned). */
const bossSchema = 'pgboss';
const bossNotifyChannel = `('pgboss_' || left(encode(sha224('${bossSchema}'::bytea), 'hex'), 24))`;

/**
 * Durable jobs in the application's own database, through pg-boss. `start` makes the queues (jobs
 * can be sent at once); `startWorkers` then runs them in this process, once the services their
 * handlers receive (the queue among them) exist.
 */
export class JobQueue implements JobSender {
  private readonly boss: PgBoss;
  private readonly kinds: ReadonlyMap<string, JobKind>;
  private readonly log: FastifyBaseLogger;
  private readonly heartbeatSeconds: number;
  /** Aborted when the process starts shutting down: handlers stop, their jobs go back. */
  private readonly shutdown = new AbortController();
  /** Settles when each running handler does. */
  private readonly running = new Set<Promise<unknown>>();
  /** The job table of each queue, for handing jobs back. */
  private readonly tables = new Map<string, string>();
  private stoppingWork: Promise<void> | null = null;

  private constructor(
    boss: PgBoss,
    kinds: ReadonlyMap<string, JobKind>,
    log: FastifyBaseLogger,
    heartbeatSeconds: number,
  ) {
    this.boss = boss;
    this.kinds = kinds;
    this.log = log;
    this.heartbeatSeconds = heartbeatSeconds;
  }

  static async start(
    database: DatabaseHandle,
    kinds: readonly JobKind[],
    options: JobQueueOptions,
  ): Promise<JobQueue> {
    const heartbeatSeconds = options.heartbeatSeconds ?? 30;
    const connection =
      database.driver === 'pglite'
        ? { db: fromPglite(database.pglite), backend: 'pglite' as const }
        : { connectionString: database.connectionString, max: 4 };
    const checkSeconds = Math.max(1, Math.floor(heartbeatSeconds / 2));
    const boss = new PgBoss({
      ...connection,
      useListenNotify: true,
      schedule: false,
      superviseIntervalSeconds: checkSeconds,
      monitorIntervalSeconds: checkSeconds,
    });
    boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
    await boss.start();

    const queue = new JobQueue(
      boss,
      new Map(kinds.map((kind) => [kind.name, kind])),
      options.log,
      heartbeatSeconds,
    );
    for (const kind of kinds) {
      // createQueue leaves an existing queue as it was: the update brings it to this release's settings.
      const settings = queue.settingsOf(kind);
      await boss.createQueue(kind.name, settings);
      await boss.updateQueue(kind.name, settings);
      const table = (await boss.getQueue(kind.name))?.table;
      if (!table) throw new Error(`The job queue ${kind.name} was not created`);
      queue.tables.set(kind.name, table);
    }
    return queue;
  }

  /** Runs every kind's jobs in this process, handing each handler `services`. */
  async startWorkers(services: Services): Promise<void> {
    for (const kind of this.kinds.values()) {
      // New jobs wake the worker through NOTIFY; retries do not, so poll as a backstop.
      const polling = { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 };
      const work = { batchSize: 1, localConcurrency: kind.concurrency ?? 1, ...polling };
      await this.boss.work<object>(kind.name, work, async ([job]) => {
        if (job) return this.runJob(kind, job, services);
      });
    }
  }

  private settingsOf(kind: JobKind) {
    return {
      notify: true,
      retryLimit: kind.retryLimit ?? 3,
      // pg-boss leaves a job stuck in `retry` with a delay of 0: at least one second.
      retryDelay: Math.max(1, kind.retryDelaySeconds ?? 5),
      retryBackoff: true,
      expireInSeconds: kind.expireInSeconds ?? 15 * 60,
      heartbeatSeconds: this.heartbeatSeconds,
    };
  }

  async send(name: string, payload: object): Promise<string> {
    this.assertRegistered(name);
    const id = await this.boss.send(name, payload);
    if (id === null) throw new Error(`The job queue refused a ${name} job`);
    return id;
  }

  async state(name: string, id: string): Promise<JobState | null> {
    this.assertRegistered(name);
    const job = await this.boss.getJobById(name, id);
    if (!job) return null;
    const status: JobStatus =
      job.state === 'completed'
        ? 'completed'
        : job.state === 'failed' || job.state === 'cancelled'
          ? 'failed'
          : 'in_progress';
    return {
      id: job.id,
      status,
      output: job.output ?? null,
      attempts: job.retryCount + (job.state === 'created' ? 0 : 1),
    };
  }

  /**
   * The first step of a shutdown: takes no new jobs, aborts the running handlers and hands their
   * jobs back to the queue as they stop, so another worker (or this one, restarted) takes them at
   * once instead of after a heartbeat timeout. Waits up to `timeoutMs` for the handlers; a job
   * whose handler ignores its signal is left to `stop()`. Sending jobs still works afterwards.
   */
  stopWorking(timeoutMs = 10_000): Promise<void> {
    this.stoppingWork ??= (async () => {
      await Promise.all([...this.kinds.keys()].map((name) => this.boss.offWork(name, { wait: false })));
      this.shutdown.abort(new Error('the server is shutting down'));
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.allSettled([...this.running]), deadline]);
      clearTimeout(timer);
    })();
    return this.stoppingWork;
  }

  /**
   * Stops working (see `stopWorking`), then closes the queue. A handler still running by then has
   * its job failed by pg-boss, to be retried after its delay. The database stays open.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    await this.stopWorking(timeoutMs);
    await this.boss.stop({ graceful: true, timeout: 1_000, close: true });
  }

  private async runJob(kind: JobKind, job: Job<object>, services: Services): Promise<unknown> {
    const log = this.log.child({ job: kind.name, jobId: job.id });
    // Fetched while the process began to shut down: not started, so straight back.
    if (this.shutdown.signal.aborted) {
      await this.handBack(kind.name, job, log);
      return undefined;
    }
    log.info({ attempt: job.retryCount + 1 }, 'job started');
    const run = kind.run(job.data, {
      services,
      log,
      jobId: job.id,
      signal: AbortSignal.any([job.signal, this.shutdown.signal]),
    });
    const settled = run.catch(() => undefined);
    this.running.add(settled);
    let result: unknown;
    try {
      result = await run;
    } catch (error) {
      if (!this.shutdown.signal.aborted) throw error;
      log.info({ err: error }, 'job stopped by the shutdown');
      // pg-boss then completes the job fenced to this attempt, which no longer matches: a no-op.
      await this.handBack(kind.name, job, log);
      return undefined;
    } finally {
      this.running.delete(settled);
    }
    // The outcome is stored here, fenced to this attempt, before anything else happens: pg-boss
    // would store it only once this handler returns, and would fail (and retry) a finished job if
    // something after its work threw. Its own completion that follows finds the job settled: a no-op.
    await this.boss.complete(kind.name, { id: job.id, retryCount: job.retryCount }, result as object);
    log.info('job completed');
    // Waking the workers only hurries the next job (they poll anyway): its failure is logged, never
    // the job's.
    await this.wakeWorkers(kind.name).catch((error: unknown) =>
      log.warn({ err: error }, 'could not wake the workers; they look again within their polling interval'),
    );
    return result;
  }

  /**
   * Puts a job this worker holds back in the queue, runnable now, and wakes the workers. pg-boss
   * has no call for this (`restore` is unfenced, and `fail` uses up a retry and waits its delay),
   * so it is one statement on pg-boss's table, fenced like pg-boss's own to the attempt this
   * worker holds. The next claim counts a new attempt (a stale completion of this one can then
   * never land on it) and the limit grows by one with it, so a shutdown costs no retry.
   */
  private async handBack(name: string, job: Job<object>, log: FastifyBaseLogger): Promise<void> {
    const table = this.tables.get(name);
    const { rows } = await this.boss.getDb().executeSql(
      `with handed_back as (
         update ${bossSchema}.${table}
            set state = 'retry', start_after = ${bossSchema}.job_now(), heartbeat_on = null,
                retry_limit = retry_limit + 1
          where name = $1 and id = $2 and state = 'active' and retry_count = $3
          returning name
       )
       select pg_notify(${bossNotifyChannel}, name) from handed_back`,
      [name, job.id, job.retryCount],
    );
    if (rows.length > 0) log.info('job handed back to the queue');
    else log.warn('job was no longer held by this worker; nothing to hand back');
  }

  /**
   * Wakes this queue's idle workers at once. pg-boss wakes them when a job is sent, but a worker
   * busy at that moment waits its polling interval (2 s) before it looks again: jobs sent together
   * (one per locale of a translation) would then start seconds apart. Each finished job therefore
   * says "look again", which costs one NOTIFY and, with nothing queued, one empty fetch.
   */
  private async wakeWorkers(name: string): Promise<void> {
    await this.boss.getDb().executeSql(`select pg_notify(${bossNotifyChannel}, $1)`, [name]);
  }

  private assertRegistered(name: string): void {
    if (!this.kinds.has(name)) throw new Error(`Job kind ${name} is not in the registry given to the queue`);
  }
}
