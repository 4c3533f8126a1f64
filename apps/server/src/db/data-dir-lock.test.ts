import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, lockFileName } from './data-dir-lock.ts';

describe('the data folder lock', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'letterset-lock-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const liveOtherProcess = () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    return child;
  };

  it('writes this process id and removes it on release', async () => {
    const lock = await acquireDataDirLock(dataDir);
    expect(await readFile(path.join(dataDir, lockFileName), 'utf8')).toBe(String(process.pid));
    await lock.release();
    await expect(readFile(path.join(dataDir, lockFileName), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('refuses a folder held by another live process, naming it', async () => {
    const other = liveOtherProcess();
    try {
      await writeFile(path.join(dataDir, lockFileName), String(other.pid));
      const attempt = acquireDataDirLock(dataDir);
      await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(attempt).rejects.toThrow(`in use by another Letterset process (pid ${other.pid})`);
    } finally {
      other.kill();
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const other = liveOtherProcess();
    const deadPid = other.pid;
    other.kill();
    await new Promise((resolve) => other.once('exit', resolve));
    await writeFile(path.join(dataDir, lockFileName), String(deadPid));
    const lock = await acquireDataDirLock(dataDir);
    expect(await readFile(path.join(dataDir, lockFileName), 'utf8')).toBe(String(process.pid));
    await lock.release();
  });

  it('makes a second server on the same folder exit with a clear message', async () => {
    const other = liveOtherProcess();
    try {
      await writeFile(path.join(dataDir, lockFileName), String(other.pid));
      const mainScript = path.resolve(import.meta.dirname, '../main.ts');
      const server = spawn(process.execPath, [mainScript], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      server.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exitCode = await new Promise((resolve) => server.once('exit', resolve));
      expect(exitCode).toBe(1);
      expect(stderr).toContain(
        `The data folder ${dataDir} is in use by another Letterset process (pid ${other.pid})`,
      );
    } finally {
      other.kill();
    }
  });
});
