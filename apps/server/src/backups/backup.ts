import type { Stats } from 'node:fs';
import { mkdtemp, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { create as createArchive, type WriteEntry } from 'tar';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';
import {
  type BackupManifest,
  backupFormat,
  backupFormatVersion,
  type FolderContents,
  manifestEntryName,
} from './backup-manifest.ts';
import {
  type BackupConfig,
  BackupError,
  countFiles,
  embeddedData,
  hasDatabase,
  isSameOrInside,
  readMigrationState,
} from './embedded-data.ts';

export interface BackupResult {
  file: string;
  /** Size of the archive written. */
  bytes: number;
  manifest: BackupManifest;
}

/** Local storage writes `<key>.<pid>.partial` and renames it: a leftover is half a file, never needed. */
const isPartialUpload = (name: string) => name.endsWith('.partial');

/**
 * Writes the embedded database and the local files into one gzip tar archive at `archivePath`,
 * its manifest first. The data folder is locked for the whole time, so a server cannot start on it
 * meanwhile, and refused when a server holds it. The archive is written under a temporary name
 * and renamed once complete: a failed backup leaves no file behind.
 */
export async function backupDataFolder(
  config: BackupConfig,
  archivePath: string,
  options: { now?: Date } = {},
): Promise<BackupResult> {
  const data = embeddedData(config);
  const file = path.resolve(archivePath);
  if (isSameOrInside(data.dataDir, file) || isSameOrInside(data.filesDir, file)) {
    throw new BackupError(
      `Write the backup outside the data folder (${data.dataDir}) and the files folder (${data.filesDir}).`,
    );
  }
  if ((await stat(file).catch(() => null))?.isDirectory()) {
    throw new BackupError(`${file} is a folder: give the name of the backup file to write.`);
  }
  if (!(await hasDatabase(data.databaseDir))) {
    throw new BackupError(
      `There is no Letterset database in ${data.dataDir} (no pglite folder in it): nothing to back up. ` +
        'Is DATA_DIR the folder the server runs on?',
    );
  }

  const lock = await acquireDataDirLock(data.dataDir);
  const scratch = await mkdtemp(path.join(tmpdir(), 'letterset-backup-'));
  const partial = `${file}.${process.pid}.partial`;
  try {
    const database = await describeDatabase(data.databaseDir);
    const manifest: BackupManifest = {
      format: backupFormat,
      formatVersion: backupFormatVersion,
      createdAt: (options.now ?? new Date()).toISOString(),
      database: { engine: 'pglite', ...database },
      contents: {
        pglite: await countFiles(data.databaseDir),
        files: await countFiles(data.filesDir, (name) => !isPartialUpload(name)),
      },
    };
    const manifestFile = path.join(scratch, manifestEntryName);
    await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);

    const sources = [
      { folder: data.databaseDir, archiveFolder: 'pglite' },
      { folder: data.filesDir, archiveFolder: 'files' },
    ];
    const present: typeof sources = [];
    for (const source of sources) {
      if ((await stat(source.folder).catch(() => null))?.isDirectory()) present.push(source);
    }
    const archived: Record<string, FolderContents> = {
      pglite: { files: 0, bytes: 0 },
      files: { files: 0, bytes: 0 },
    };
    await createArchive(
      {
        file: partial,
        gzip: true,
        strict: true,
        portable: true,
        // The folders are given by absolute path; onWriteEntry names every entry inside the archive.
        preservePaths: true,
        filter: (entryPath, entry) => {
          // Packing reads the file system: entries are Stats here (ReadEntry only when copying archives).
          const entryStat = entry as Stats;
          return (
            entryStat.isDirectory() || (entryStat.isFile() && !isPartialUpload(path.basename(entryPath)))
          );
        },
        onWriteEntry(entry: WriteEntry) {
          if (entry.absolute === manifestFile) {
            entry.path = manifestEntryName;
            return;
          }
          const source = present.find(({ folder }) => isSameOrInside(folder, entry.absolute));
          if (!source) return;
          const inner = path.relative(source.folder, entry.absolute).split(path.sep).join('/');
          entry.path = [source.archiveFolder, inner].filter(Boolean).join('/');
          if (entry.type === 'Directory') entry.path += '/';
          else {
            const counted = archived[source.archiveFolder] ?? { files: 0, bytes: 0 };
            counted.files += 1;
            counted.bytes += entry.stat?.size ?? 0;
          }
        },
      },
      [manifestFile, ...present.map(({ folder }) => folder)],
    );
    // The manifest was counted before packing; a file that came or went since then makes it untrue.
    for (const [folder, counted] of Object.entries(archived)) {
      const expected = manifest.contents[folder as keyof BackupManifest['contents']];
      if (counted.files !== expected.files || counted.bytes !== expected.bytes) {
        throw new BackupError(
          `The ${folder} folder changed while it was being backed up (is another program writing to it?). ` +
            'Try again.',
        );
      }
    }
    // On disk before it gets its name: a backup that exists under FILE is a whole one.
    const handle = await open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    return { file, bytes: (await stat(file)).size, manifest };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await lock.release();
  }
}

/**
 * Opens the database (the folder is locked, so nothing else has it) to learn its PostgreSQL
 * version and migration, then closes it: closing checkpoints, so the files on disk are complete.
 */
async function describeDatabase(databaseDir: string): Promise<Omit<BackupManifest['database'], 'engine'>> {
  const pglite = await PGlite.create({ dataDir: databaseDir });
  try {
    const version = await pglite.query<{ server_version: string }>('show server_version');
    return {
      postgresVersion: version.rows[0]?.server_version ?? 'unknown',
      migration: await readMigrationState(pglite),
    };
  } finally {
    await pglite.close();
  }
}
