import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const entry = path.join(import.meta.dirname, 'server-process-entry.ts');

/** A real Letterset server process started from `server-process-entry.ts`. */
export interface ChildServer {
  process: ChildProcess;
  pid: number;
  /** The API, or for a worker-only process its health checks. */
  url: string;
  /** Every line it wrote to stdout or stderr so far. */
  output: string[];
  /** Resolves with the first output line (JSON) that satisfies `test`. */
  waitForLine(test: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts a server process with the given environment on top of quiet test defaults (a free
 * port on 127.0.0.1, no web app or docs, a scratch data folder); resolves once it listens.
 */
export async function startChildServer(
  environment: Record<string, string>,
  options: { startTimeoutMs?: number } = {},
): Promise<ChildServer> {
  const scratchDir = mkdtempSync(path.join(tmpdir(), 'letterset-child-'));
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: '/nonexistent',
      DOCS_DIST_DIR: '/nonexistent',
      DATA_DIR: scratchDir,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const waiters = new Set<{ test: (line: Record<string, unknown>) => boolean; resolve: () => void }>();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      rmSync(scratchDir, { recursive: true, force: true });
      resolve({ code, signal });
    });
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      output.push(line);
      const parsed = parseLine(line);
      if (!parsed) return;
      for (const waiter of waiters) {
        if (waiter.test(parsed)) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
    });
  }
  const waitForLine = (test: (line: Record<string, unknown>) => boolean, timeoutMs = 30_000) => {
    if (output.some((line) => test(parseLine(line) ?? {}))) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = { test, resolve };
      waiters.add(waiter);
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`no such line within ${timeoutMs} ms; output so far:\n${output.join('\n')}`));
      }, timeoutMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      void exited.then(({ code, signal }) => {
        if (!waiters.has(waiter)) return;
        waiters.delete(waiter);
        clearTimeout(timer);
        reject(new Error(`the process exited (${code ?? signal}); output:\n${output.join('\n')}`));
      });
    });
  };

  try {
    await waitForLine((line) => typeof line.listening === 'string', options.startTimeoutMs ?? 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const listening = output.map(parseLine).find((line) => typeof line?.listening === 'string');
  return {
    process: child,
    pid: child.pid ?? 0,
    url: String(listening?.listening),
    output,
    waitForLine,
    exited,
  };
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(line);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
