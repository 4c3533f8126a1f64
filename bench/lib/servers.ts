import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const repositoryRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  origin: string;
  stop(): Promise<void>;
}

/** Starts a server script in its own process (as in production) and waits until `readyPath` answers. */
export async function startServer(
  script: string,
  options: { port: number; readyPath: string; env?: Record<string, string> },
): Promise<RunningServer> {
  return startCommand(process.execPath, [script], options);
}

/**
 * Starts a command that runs a server (`npm start`, say) in a process group of its own, and waits
 * until `readyPath` answers 2xx; stopping it signals the whole group, so the node process under npm
 * and its shell stops too. `pollMs` is how often readiness is asked (a start-up bench asks often).
 */
export async function startCommand(
  command: string,
  args: string[],
  options: { port: number; readyPath: string; env?: Record<string, string>; cwd?: string; pollMs?: number },
): Promise<RunningServer> {
  const origin = `http://127.0.0.1:${options.port}`;
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, PORT: String(options.port), ...options.env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    const group = child.pid;
    if (group === undefined) return;
    if (child.exitCode === null) process.kill(-group, 'SIGTERM');
    await exited;
    // npm exits before the server under it has finished closing (and released its data folder).
    while (groupAlive(group)) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${command} ${args.join(' ')} exited with code ${child.exitCode}`);
    const ready = await fetch(`${origin}${options.readyPath}`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command} ${args.join(' ')} did not become ready within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
  }
  return { origin, stop };
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A fresh database on the PostgreSQL server of BENCH_DATABASE_URL (first-run setup needs an empty
 * one), dropped afterwards.
 */
async function freshPostgresDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `letterset_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A Letterset server on a fresh embedded database, or on a fresh one of BENCH_DATABASE_URL's server;
 * `env` adds to its configuration (an AI provider, say).
 */
export async function startLetterset(port: number, env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'letterset-bench-'));
  const postgres = process.env.BENCH_DATABASE_URL
    ? await freshPostgresDatabase(process.env.BENCH_DATABASE_URL)
    : null;
  const server = await startServer(path.join(repositoryRoot, 'apps/server/src/main.ts'), {
    port,
    readyPath: '/readyz',
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: postgres?.url ?? '',
      DOCS_DIST_DIR: '/nonexistent',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      ...env,
    },
  });
  return {
    origin: server.origin,
    async stop() {
      await server.stop();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
