import type { Stats } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { extract, type ReadEntry } from 'tar';
import { acquireDataDirLock, type DataDirLock, lockFileName } from '../db/data-dir-lock.ts';
import { secretsKeyFileName } from '../security/secrets.ts';
import {
  type BackupManifest,
  type FolderContents,
  manifestEntryName,
  readManifest,
} from './backup-manifest.ts';
import {
  type BackupConfig,
  BackupError,
  type EmbeddedData,
  embeddedData,
  hasDatabase,
  isSameOrInside,
  knownMigrations,
  readMigrationState,
} from './embedded-data.ts';

export interface RestoreResult {
  dataDir: string;
  filesDir: string;
  manifest: BackupManifest;
  /** Where the data folder that was there before now is; null when there was none, or it was empty. */
  previousDataDir: string | null;
  /** The same for a files folder outside the data folder (FILES_DIR); null otherwise. */
  previousFilesDir: string | null;
}

/**
 * Restores a backup into the configured data folder (and files folder). Nothing of the backup is
 * mixed with what is there: the archive is unpacked into a fresh folder beside it, checked (the
 * database opens at the migration the manifest names), and only then swapped in; the previous
 * folder is kept beside it as `<folder>.before-restore-<time>`. The next server start migrates
 * the restored database as usual.
 */
export async function restoreDataFolder(
  config: BackupConfig,
  archivePath: string,
  options: { now?: Date } = {},
): Promise<RestoreResult> {
  const data = embeddedData(config);
  const file = path.resolve(archivePath);
  const manifest = await readManifest(file);
  await refuseNewerMigrations(manifest);

  const stamp = (options.now ?? new Date()).toISOString().replaceAll(':', '-');
  const filesInsideData = isSameOrInside(data.dataDir, data.filesDir);
  const staging: EmbeddedData = {
    dataDir: `${data.dataDir}.restoring-${stamp}`,
    databaseDir: path.join(`${data.dataDir}.restoring-${stamp}`, 'pglite'),
    filesDir: filesInsideData
      ? path.join(`${data.dataDir}.restoring-${stamp}`, path.relative(data.dataDir, data.filesDir))
      : `${data.filesDir}.restoring-${stamp}`,
  };

  const locks: DataDirLock[] = [];
  const dataDirExists = await isDirectory(data.dataDir);
  try {
    if (dataDirExists) locks.push(await acquireDataDirLock(data.dataDir));
    await mkdir(staging.dataDir, { recursive: true });
    // Our own lock travels with the fresh folder, so it is never unlocked once in place.
    locks.push(await acquireDataDirLock(staging.dataDir));
    await unpack(file, manifest, staging);
    await checkDatabase(staging.databaseDir, manifest);
    await keepSecretsKey(data.dataDir, staging.dataDir);
  } catch (error) {
    await Promise.all(locks.map((lock) => lock.release()));
    await discard(staging.dataDir);
    if (!filesInsideData) await discard(staging.filesDir);
    throw error;
  }

  const previousDataDir = await swapIn(staging.dataDir, data.dataDir, stamp);
  const previousFilesDir = filesInsideData ? null : await swapIn(staging.filesDir, data.filesDir, stamp);
  // The lock file that came along from the fresh folder is ours: taking it again and releasing it
  // removes it. The one left in the previous folder is ours too, and stale.
  await (await acquireDataDirLock(data.dataDir)).release();
  if (previousDataDir) await rm(path.join(previousDataDir, lockFileName), { force: true });
  return { dataDir: data.dataDir, filesDir: data.filesDir, manifest, previousDataDir, previousFilesDir };
}

/**
 * The key that seals connector secrets is never in a backup (with it, the backup would hold the
 * secrets in the clear): the restored folder keeps this server's own, when it has one.
 */
async function keepSecretsKey(dataDir: string, stagingDir: string): Promise<void> {
  try {
    await copyFile(path.join(dataDir, secretsKeyFileName), path.join(stagingDir, secretsKeyFileName));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function refuseNewerMigrations(manifest: BackupManifest): Promise<void> {
  const migration = manifest.database.migration;
  const latestKnown = (await knownMigrations()).at(-1)?.when ?? 0;
  if (migration && migration.createdAt > latestKnown) {
    throw new BackupError(
      `This backup's database is at migration ${migration.tag ?? migration.createdAt}, which this release of ` +
        'Letterset does not have: it was made by a newer Letterset. Restore it with that release or a later one.',
    );
  }
}

/**
 * Unpacks `pglite/` into the fresh database folder and `files/` into the fresh files folder,
 * refusing anything else (links, devices, other folders) and checking the counts the manifest gave.
 */
async function unpack(file: string, manifest: BackupManifest, staging: EmbeddedData): Promise<void> {
  await mkdir(staging.databaseDir, { recursive: true });
  await mkdir(staging.filesDir, { recursive: true });
  for (const part of ['pglite', 'files'] as const) {
    const unpacked: FolderContents = { files: 0, bytes: 0 };
    let unexpected: string | undefined;
    try {
      await extract({
        file,
        cwd: part === 'pglite' ? staging.databaseDir : staging.filesDir,
        strip: 1,
        strict: true,
        preserveOwner: false,
        // PostgreSQL's WAL segments are 16 MB of mostly zeros, which gzip shrinks far beyond tar's
        // default guard against decompression bombs; this file is the operator's own backup.
        maxDecompressionRatio: Number.POSITIVE_INFINITY,
        filter(entryPath: string, entry: ReadEntry | Stats) {
          const { type, size } = entry as ReadEntry;
          if (entryPath === manifestEntryName) return false;
          const [top] = entryPath.split('/');
          if ((top !== 'pglite' && top !== 'files') || (type !== 'File' && type !== 'Directory')) {
            unexpected ??= entryPath;
            return false;
          }
          if (top !== part) return false;
          if (type === 'File') {
            unpacked.files += 1;
            unpacked.bytes += size ?? 0;
          }
          return true;
        },
      });
    } catch (error) {
      throw isArchiveDamage(error)
        ? new BackupError(
            `${file} could not be read to the end (${(error as Error).message}): it is damaged or incomplete. ` +
              'Nothing was restored.',
          )
        : error;
    }
    if (unexpected !== undefined) {
      throw new BackupError(
        `${file} holds ${unexpected}, which no Letterset backup has: it was not restored.`,
      );
    }
    const expected = manifest.contents[part];
    if (unpacked.files !== expected.files || unpacked.bytes !== expected.bytes) {
      throw new BackupError(
        `${file} is incomplete: its manifest lists ${expected.files} files in ${part}/, it holds ` +
          `${unpacked.files}. It was not restored.`,
      );
    }
  }
}

/** The restored database must open, at the migration the manifest names, before it replaces anything. */
async function checkDatabase(databaseDir: string, manifest: BackupManifest): Promise<void> {
  if (!(await hasDatabase(databaseDir))) {
    throw new BackupError('The backup holds no database: it was not restored.');
  }
  const pglite = await PGlite.create({ dataDir: databaseDir });
  try {
    const migration = await readMigrationState(pglite);
    if ((migration?.createdAt ?? null) !== (manifest.database.migration?.createdAt ?? null)) {
      throw new BackupError(
        'The restored database is not at the migration the backup names: the file is damaged. It was not restored.',
      );
    }
  } finally {
    await pglite.close();
  }
}

/**
 * Moves `fresh` to `target`. What was at `target` is kept beside it, unless it was empty (or held
 * only our lock); returns where it went.
 */
async function swapIn(fresh: string, target: string, stamp: string): Promise<string | null> {
  let previous: string | null = null;
  if (await isDirectory(target)) {
    const entries = (await readdir(target)).filter((name) => name !== lockFileName);
    if (entries.length === 0) {
      await rm(target, { recursive: true, force: true });
    } else {
      previous = `${target}.before-restore-${stamp}`;
      await rename(target, previous);
    }
  }
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await rename(fresh, target);
  } catch (error) {
    const movedBack =
      previous !== null &&
      (await rename(previous, target)
        .then(() => true)
        .catch(() => false));
    throw new BackupError(
      `The restored folder ${fresh} could not be moved to ${target} (${(error as Error).message}). ` +
        (movedBack
          ? 'The previous folder is back in place.'
          : previous
            ? `The previous folder is ${previous}.`
            : ''),
    );
  }
  return previous;
}

/** tar's own codes (TAR_ABORT, TAR_BAD_ARCHIVE...) and zlib's (Z_BUF_ERROR...): the file, not the disk. */
function isArchiveDamage(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('TAR_') || code.startsWith('Z_'));
}

/**
 * Removes a half-restored folder. tar may still be finishing a write when it reports an error, so
 * removal is retried; the error that stopped the restore is the one worth reporting either way.
 */
async function discard(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }).catch(() => undefined);
}

async function isDirectory(folder: string): Promise<boolean> {
  return (await stat(folder).catch(() => null))?.isDirectory() ?? false;
}
