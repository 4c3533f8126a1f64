import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Parser, type ReadEntry } from 'tar';
import { BackupError, type MigrationState } from './embedded-data.ts';

/** The archive's first entry: what the file is, and what it holds. */
export const manifestEntryName = 'letterset-backup.json';
export const backupFormat = 'letterset-backup';
/** Bumped when the archive's layout changes in a way older releases could not restore. */
export const backupFormatVersion = 1;

export interface FolderContents {
  files: number;
  bytes: number;
}

export interface BackupManifest {
  format: typeof backupFormat;
  formatVersion: number;
  createdAt: string;
  database: {
    engine: 'pglite';
    postgresVersion: string;
    /** The last migration applied when the backup was made (null: never migrated). */
    migration: MigrationState | null;
  };
  /** Archive folders: `pglite/` is the database's data directory, `files/` the local file storage. */
  contents: { pglite: FolderContents; files: FolderContents };
}

/** A manifest is at most a few hundred bytes; anything much larger is not one. */
const largestManifestBytes = 64 * 1024;

/**
 * Reads the manifest at the start of an archive without reading the rest, and refuses a file that
 * is not a Letterset backup or was written in a format newer than this release reads.
 */
export async function readManifest(archivePath: string): Promise<BackupManifest> {
  const notABackup = (reason: string) =>
    new BackupError(`${archivePath} is not a Letterset backup (${reason}).`);
  const file = await stat(archivePath).catch(() => null);
  if (!file) throw new BackupError(`There is no file ${archivePath}.`);
  if (file.isDirectory()) throw new BackupError(`${archivePath} is a folder, not a backup file.`);
  if (file.size === 0) throw notABackup('it is empty');
  const text = await new Promise<string>((resolve, reject) => {
    const input = createReadStream(archivePath);
    let settled = false;
    const finish = (error: Error | null, value = '') => {
      if (settled) return;
      settled = true;
      input.destroy();
      if (error) reject(error);
      else resolve(value);
    };
    const parser = new Parser({
      strict: true,
      onReadEntry(entry: ReadEntry) {
        if (settled) return entry.resume();
        if (entry.path !== manifestEntryName || entry.type !== 'File') {
          entry.resume();
          return finish(notABackup(`its first entry is ${entry.path}, not ${manifestEntryName}`));
        }
        if (entry.size > largestManifestBytes) {
          entry.resume();
          return finish(notABackup(`its ${manifestEntryName} is too large`));
        }
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => finish(null, Buffer.concat(chunks).toString('utf8')));
      },
    });
    parser.on('error', (error: Error) =>
      finish(notABackup(`it cannot be read as a gzip tar archive: ${error.message}`)),
    );
    // Only reached by an archive with no entry at all (tar itself refuses most such files first).
    parser.on('end', () => finish(notABackup('it holds no entries')));
    input.on('error', (error: Error) => finish(error));
    input.pipe(parser);
  });
  return parseManifest(text, notABackup);
}

function parseManifest(text: string, notABackup: (reason: string) => BackupError): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notABackup(`its ${manifestEntryName} is not JSON`);
  }
  const manifest = value as Partial<BackupManifest> | null;
  if (manifest?.format !== backupFormat || !Number.isInteger(manifest.formatVersion)) {
    throw notABackup(`its ${manifestEntryName} does not describe a Letterset backup`);
  }
  const formatVersion = manifest.formatVersion as number;
  if (formatVersion > backupFormatVersion) {
    throw new BackupError(
      `This backup was made by a newer Letterset (backup format ${formatVersion}; this release reads ` +
        `format ${backupFormatVersion} and older). Restore it with that release or a later one.`,
    );
  }
  const counts = (contents: FolderContents | undefined) =>
    Number.isInteger(contents?.files) && Number.isInteger(contents?.bytes);
  if (
    manifest.database?.engine !== 'pglite' ||
    !counts(manifest.contents?.pglite) ||
    !counts(manifest.contents?.files) ||
    typeof manifest.createdAt !== 'string'
  ) {
    throw notABackup(`its ${manifestEntryName} is incomplete`);
  }
  return manifest as BackupManifest;
}

/** One line per part of a backup, for the commands' output. */
export function describeContents(manifest: BackupManifest): string[] {
  const { migration, postgresVersion } = manifest.database;
  const at = migration ? `at migration ${migration.tag ?? migration.createdAt}` : 'never migrated';
  const { pglite, files } = manifest.contents;
  return [
    `  database: PGlite (PostgreSQL ${postgresVersion}) ${at}, ${pglite.files} files, ${formatBytes(pglite.bytes)}`,
    `  files:    ${files.files} files (images, exports, documents), ${formatBytes(files.bytes)}`,
  ];
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
