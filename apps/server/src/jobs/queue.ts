import type { FastifyBaseLogger } from 'fastify';
import { fromPglite, PgBoss } from 'pg-boss';
import type { Database, DatabaseHandle } from '../db/client.ts';

/** What a job handler may use besides its payload. */
export interface JobContext {
  db: Database;
  log: FastifyBaseLogger;
  jobId: string;
  /** Aborted when the job expires or the server shuts down. */
  signal: AbortSignal;
}

/**
 * One kind of background work. Payloads are JSON; the handler's result is kept as the job's
 * output. A thrown error is retried after `retryDelaySeconds`, up to `retryLimit` times.
 */
export interface JobKind<Payload extends object = object, Result = unknown> {
  name: string;
  run(payload: Payload, context: JobContext): Promise<Result>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How long one attempt may take before it counts as failed and is retried. */
  expireInSeconds?: number;
}

export function defineJobKind<Payload extends object, Result>(
  kind: JobKind<Payload, Result>,
): JobKind<Payload, Result> {
  return kind;
}

/** The statuses the API shows for background work. */
export type JobStatus = 'in_progress' | 'completed' | 'failed';

export interface JobState {
  id: string;
  status: JobStatus;
  output: unknown;
  attempts: number;
}

/**
 * A worker that stops sending heartbeats (its process crashed) loses its job after this
 * many seconds; the job then runs again on a live worker, so nothing stays "in progress".
 */
const heartbeatSeconds = 30;

/** Durable jobs in the application's own database, through pg-boss. */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly kinds: ReadonlyMap<string, JobKind>;

  private constructor(boss: PgBoss, kinds: ReadonlyMap<string, JobKind>) {
    this.boss = boss;
    this.kinds = kinds;
  }

  static async start(
    database: DatabaseHandle,
    kinds: readonly JobKind[],
    options: { runWorkers: boolean; log: FastifyBaseLogger },
  ): Promise<JobQueue> {
    const connection =
      database.driver === 'pglite'
        ? { db: fromPglite(database.pglite), backend: 'pglite' as const }
        : { connectionString: database.connectionString, max: 4 };
    const boss = new PgBoss({ ...connection, useListenNotify: true, schedule: false });
    boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
    await boss.start();

    const queue = new JobQueue(boss, new Map(kinds.map((kind) => [kind.name, kind])));
    for (const kind of kinds) {
      await boss.createQueue(kind.name, {
        notify: true,
        retryLimit: kind.retryLimit ?? 3,
        // pg-boss leaves a job stuck in `retry` with a delay of 0: at least one second.
        retryDelay: Math.max(1, kind.retryDelaySeconds ?? 5),
        retryBackoff: true,
        expireInSeconds: kind.expireInSeconds ?? 15 * 60,
        heartbeatSeconds,
      });
      if (options.runWorkers) {
        // New jobs wake the worker through NOTIFY; retries do not, so poll as a backstop.
        const polling = { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 };
        await boss.work<object>(kind.name, { batchSize: 1, ...polling }, async ([job]) => {
          if (!job) return;
          const log = options.log.child({ job: kind.name, jobId: job.id });
          log.info({ attempt: job.retryCount + 1 }, 'job started');
          const result = await kind.run(job.data, {
            db: database.db,
            log,
            jobId: job.id,
            signal: job.signal,
          });
          log.info('job completed');
          return result;
        });
      }
    }
    return queue;
  }

  async send<Payload extends object>(kind: JobKind<Payload>, payload: Payload): Promise<string> {
    this.assertRegistered(kind);
    const id = await this.boss.send(kind.name, payload);
    if (id === null) throw new Error(`The job queue refused a ${kind.name} job`);
    return id;
  }

  async state(kind: JobKind<never>, id: string): Promise<JobState | null> {
    this.assertRegistered(kind);
    const job = await this.boss.getJobById(kind.name, id);
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

  /** Lets running jobs finish (up to `timeoutMs`), then stops polling. The database stays open. */
  async stop(timeoutMs = 10_000): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }

  private assertRegistered(kind: JobKind<never>): void {
    if (this.kinds.get(kind.name) !== kind) {
      throw new Error(`Job kind ${kind.name} is not in the registry given to the queue`);
    }
  }
}
