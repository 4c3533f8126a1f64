import { setTimeout as sleep } from 'node:timers/promises';

/** How the server answered `/healthz` while some work ran. */
export interface HealthDuringWork<T> {
  result: T;
  elapsedMs: number;
  /** Each check's round trip. */
  roundTrips: number[];
  /**
   * The longest wait between two answers (the work's start and end included): a blocked event
   * loop also delays the next check's start, which a round trip alone would not show.
   */
  worstGapMs: number;
}

/**
 * Runs `work` while `/healthz` of the listening server at `baseUrl` is asked every 20 ms over HTTP
 * (a real socket: `inject` would share the test's own turn of the loop).
 */
export async function whileCheckingHealth<T>(
  baseUrl: string,
  work: () => Promise<T>,
): Promise<HealthDuringWork<T>> {
  const roundTrips: number[] = [];
  const answeredAt: number[] = [];
  const failures: string[] = [];
  let running = true;
  const poller = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/healthz`);
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`/healthz answered ${response.status}`);
      answeredAt.push(performance.now());
      roundTrips.push(performance.now() - started);
      await sleep(20);
    }
  })();
  const started = performance.now();
  let outcome: HealthDuringWork<T>;
  try {
    const result = await work();
    const ended = performance.now();
    const marks = [started, ...answeredAt.filter((time) => time < ended), ended];
    const worstGapMs = Math.max(...marks.slice(1).map((time, index) => time - (marks[index] ?? time)));
    outcome = { result, elapsedMs: ended - started, roundTrips, worstGapMs };
  } finally {
    running = false;
    await poller;
  }
  if (failures.length > 0) throw new Error(failures.join('; '));
  return outcome;
}
