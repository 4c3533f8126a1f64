import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * PGlite has no lock of its own: two processes opening one data folder corrupt it. This pid
 * file makes the folder single-owner; a lock left by a process that died is taken over.
 */
export interface DataDirLock {
  release(): Promise<void>;
}

export class DataDirLockedError extends Error {
  readonly dataDir: string;
  readonly ownerPid: number;

  constructor(dataDir: string, ownerPid: number) {
    super(
      `The data folder ${dataDir} is in use by another Letterset process (pid ${ownerPid}). ` +
        'Stop that process first, or point DATA_DIR at another folder.',
    );
    this.name = 'DataDirLockedError';
    this.dataDir = dataDir;
    this.ownerPid = ownerPid;
  }
}

export const lockFileName = 'letterset.pid';

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const lockFile = path.join(dataDir, lockFileName);
  const ownPid = String(process.pid);
  try {
    await writeFile(lockFile, ownPid, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const ownerPid = Number.parseInt(await readFile(lockFile, 'utf8'), 10);
    if (Number.isInteger(ownerPid) && ownerPid !== process.pid && isProcessAlive(ownerPid)) {
      throw new DataDirLockedError(dataDir, ownerPid);
    }
    await writeFile(lockFile, ownPid);
  }
  return {
    async release() {
      const current = await readFile(lockFile, 'utf8').catch(() => undefined);
      if (current === ownPid) await unlink(lockFile);
    },
  };
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; it still owns the folder.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
