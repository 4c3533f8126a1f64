import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface LoadTarget {
  label: string;
  url: string;
  method?: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  /** Bodies each connection sends in turn, instead of one `body`. */
  alternatingBodies?: string[];
  /** A body made for each request from its number in the run: every request a distinct one. */
  bodyFor?: (requestNumber: number) => string;
  /**
   * Paths the requests of all connections take in turn, instead of `url`'s: with at least as many
   * paths as connections, requests under way at the same time ask for different things.
   */
  rotatingPaths?: string[];
}

function requestsOf(target: LoadTarget): autocannon.Request[] | undefined {
  if (target.alternatingBodies) return target.alternatingBodies.map((body) => ({ body }));
  const bodyFor = target.bodyFor;
  if (bodyFor) {
    let number = 0;
    return [{ setupRequest: (request) => ({ ...request, body: bodyFor(number++) }) }];
  }
  const paths = target.rotatingPaths;
  if (!paths) return undefined;
  let turn = 0;
  return [
    {
      setupRequest: (request) => ({
        ...request,
        path: paths[turn++ % paths.length] ?? request.path,
      }),
    },
  ];
}

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
/*
 * Enough connections to keep a server that waits on its database busy: with 10, Letterset sat a
 * quarter idle between round trips, and the run measured latency rather than throughput. The
 * hello-world route is as fast with 10 as with 50.
 */
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** A short warm-up (JIT, connection pools), then the measured run. */
export async function measure(target: LoadTarget): Promise<LoadResult> {
  const options = {
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    requests: requestsOf(target),
    connections,
  };
  await autocannon({ ...options, duration: Math.min(3, seconds) });
  const result = await autocannon({ ...options, duration: seconds });
  return {
    label: target.label,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

export function printTable(baseline: LoadResult, results: LoadResult[]): void {
  const rows = [baseline, ...results].map((result) => ({
    route: result.label,
    'req/s': Math.round(result.requestsPerSecond),
    'p50 ms': result.p50Ms,
    'p99 ms': result.p99Ms,
    'non-2xx': result.non2xx,
    'vs hello-world': `${((result.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1)} %`,
  }));
  console.table(rows);
  console.log(`(${connections} connections, ${seconds} s per route after warm-up, on ${process.version})`);
}
