/**
 * Start-up time as users meet it: from spawning `npm start` (builds already fresh, so it only checks
 * them) until the server answers `/readyz` and serves the web app's index. The data live in a
 * temporary folder, so the user's own data are not touched. The first start of that folder creates
 * and migrates the embedded database (its own row); the runs after it are second starts, nothing
 * changed. Baselines measured in the same run: `node -e ''` to its exit, and a hello-world Fastify
 * server (bench/servers/hello-world.ts) to its first answer.
 *   npm run bench:startup -w @letterset/bench     (BENCH_STARTUP_RUNS, BENCH_PORT to tune)
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repositoryRoot, startCommand, startServer } from './lib/servers.ts';

const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const port = Number(process.env.BENCH_PORT ?? 3110);
const targetMs = 5000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Time from spawning until the server is ready; the server is stopped again before answering. */
async function timeStart(
  start: () => Promise<{ origin: string; stop(): Promise<void> }>,
  check?: (origin: string) => Promise<void>,
) {
  const started = performance.now();
  const server = await start();
  try {
    await check?.(server.origin);
    return performance.now() - started;
  } finally {
    await server.stop();
  }
}

async function webAppIndexAnswers(origin: string): Promise<void> {
  const response = await fetch(`${origin}/`);
  const html = await response.text();
  if (!response.ok || !html.includes('<div id="root">')) {
    throw new Error(`the web app's index did not answer: ${response.status}`);
  }
}

// `npm start` builds what is stale; the bench measures starts with both builds fresh.
for (const script of ['scripts/build-web-once.ts', 'scripts/build-docs-once.ts']) {
  const build = spawnSync(process.execPath, [script], { cwd: repositoryRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`${script} failed`);
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'letterset-bench-startup-'));
const startLetterset = () =>
  startCommand('npm', ['start'], {
    cwd: repositoryRoot,
    port,
    readyPath: '/readyz',
    pollMs: 20,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DOCS_PORT: String(port + 1),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    },
  });
try {
  const nodeTimes: number[] = [];
  const helloTimes: number[] = [];
  const secondStartTimes: number[] = [];
  const firstStartMs = await timeStart(startLetterset, webAppIndexAnswers);
  for (let run = 0; run < runs; run += 1) {
    const nodeStarted = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    nodeTimes.push(performance.now() - nodeStarted);
    helloTimes.push(
      await timeStart(() =>
        startServer(path.join(import.meta.dirname, 'servers/hello-world.ts'), { port, readyPath: '/hello' }),
      ),
    );
    secondStartTimes.push(await timeStart(startLetterset, webAppIndexAnswers));
  }

  const row = (label: string, times: number[]) =>
    console.log(
      `${label.padEnd(58)} median ${median(times).toFixed(0).padStart(6)} ms   (runs: ${times.map((time) => time.toFixed(0)).join(', ')})`,
    );
  console.log(
    `Start-up: npm start until /readyz and the web app answer, ${runs} runs, Node ${process.version}\n`,
  );
  row("Baseline: node -e '' (spawn to exit)", nodeTimes);
  row('Baseline: hello-world Fastify (spawn to first answer)', helloTimes);
  row('npm start, first start (creates and migrates the database)', [firstStartMs]);
  row('npm start, second start (nothing changed)', secondStartTimes);
  console.log('');
  const secondMedian = median(secondStartTimes);
  console.log(
    `Second start vs hello-world Fastify: ${(secondMedian / median(helloTimes)).toFixed(1)}x its time`,
  );
  console.log(`Target ≤ ${targetMs} ms for a second start: ${secondMedian <= targetMs ? 'met' : 'NOT met'}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
