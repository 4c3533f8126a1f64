import { Worker } from 'node:worker_threads';

/**
 * A few worker threads that run one task each at a time, with a hard time limit per task. A task
 * that overruns it has its worker terminated (a synchronous loop cannot be interrupted any other
 * way) and replaced; the other workers and the queue carry on. The workers start with the first
 * task and are timed only once ready, so loading their modules never counts against a task.
 *
 * Each worker gets `workerData.progress`, a shared Int32Array it writes what it is doing into, so
 * that a terminated task can still say where it was.
 */
export type TaskOutcome<Result> =
  | { kind: 'done'; result: Result; elapsedMs: number }
  | { kind: 'overran' | 'crashed'; progress: number[]; elapsedMs: number; message: string };

interface Job {
  message: unknown;
  timeLimitMs: number;
  resolve(outcome: TaskOutcome<unknown>): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  progress: Int32Array;
  job: Job | null;
  startedAt: number;
  timer: NodeJS.Timeout | undefined;
}

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly idle: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  private readonly options: { size: number; workerUrl: URL; progressLength: number };

  constructor(options: { size: number; workerUrl: URL; progressLength: number }) {
    this.options = options;
  }

  run<Result>(message: unknown, timeLimitMs: number): Promise<TaskOutcome<Result>> {
    if (this.closed) return Promise.reject(new Error('the render pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ message, timeLimitMs, resolve: resolve as Job['resolve'], reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the render pool is closed'));
    await Promise.all([...this.slots].map((slot) => this.retire(slot)));
  }

  private dispatch(): void {
    while (this.queue.length > 0 && this.idle.length > 0) {
      const slot = this.idle.pop() as Slot;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.progress.fill(-1);
      slot.startedAt = performance.now();
      const overran = () => this.fail(slot, 'overran', 'took longer than its time limit');
      slot.timer = setTimeout(overran, job.timeLimitMs);
      slot.worker.postMessage(job.message);
    }
    // The first task starts the whole pool, so that a burst (or a runaway) finds threads ready.
    if (this.queue.length > 0) while (this.slots.size < this.options.size) this.spawn();
  }

  private spawn(): void {
    const progress = new Int32Array(new SharedArrayBuffer(4 * this.options.progressLength));
    const worker = new Worker(this.options.workerUrl, { workerData: { progress } });
    const slot: Slot = { worker, progress, job: null, startedAt: -1, timer: undefined };
    this.slots.add(slot);
    worker.on('message', (message: { ready?: true; result?: unknown; error?: string }) => {
      if (message.ready) {
        slot.startedAt = 0;
        this.idle.push(slot);
      } else if (slot.job) {
        const job = slot.job;
        clearTimeout(slot.timer);
        slot.job = null;
        this.idle.push(slot);
        const elapsedMs = performance.now() - slot.startedAt;
        if (message.error === undefined) job.resolve({ kind: 'done', result: message.result, elapsedMs });
        else job.reject(new Error(message.error));
      }
      this.dispatch();
    });
    worker.on('error', (error: Error) => this.fail(slot, 'crashed', error.message));
    worker.on('exit', () => this.fail(slot, 'crashed', 'its worker stopped'));
  }

  /** Ends the slot's task (if any) with `kind`, terminates its worker and starts a replacement. */
  private fail(slot: Slot, kind: 'overran' | 'crashed', message: string): void {
    if (!this.slots.has(slot)) return;
    const job = slot.job;
    const progress = [...slot.progress];
    void this.retire(slot);
    if (job) job.resolve({ kind, progress, elapsedMs: performance.now() - slot.startedAt, message });
    else if (this.queue.length > 0 && slot.startedAt < 0) {
      // A worker that cannot even start would fail every task: say so instead of retrying forever.
      for (const waiting of this.queue.splice(0))
        waiting.reject(new Error(`a render worker failed: ${message}`));
    }
    if (this.closed) return;
    // Keep the pool full: the replacement loads while nobody waits for it.
    if (kind === 'overran') while (this.slots.size < this.options.size) this.spawn();
    this.dispatch();
  }

  private async retire(slot: Slot): Promise<void> {
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    const index = this.idle.indexOf(slot);
    if (index >= 0) this.idle.splice(index, 1);
    await slot.worker.terminate();
  }
}
