import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { type Config, ConfigError } from '../config.ts';
import { migrationsFolder } from '../db/client.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';

/** A backup or restore that cannot go ahead; its message tells the operator what to do instead. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

const readmeSection = 'the "Backups" section of the README';

/** What the embedded setup keeps on disk, and where: the only things a backup holds. */
export interface EmbeddedData {
  /** The data folder (`DATA_DIR`): the pid lock, the database, by default the files and the outbox. */
  dataDir: string;
  /** PGlite's PostgreSQL data directory. */
  databaseDir: string;
  /** The local file storage (`FILES_DIR`, by default `DATA_DIR/files`): images, exports, documents. */
  filesDir: string;
}

export type BackupConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'storage'>;

/**
 * The folders to back up or restore. Only the embedded setup has them: with PostgreSQL or S3 the
 * data lives elsewhere and is backed up with that service's own tools.
 */
export function embeddedData(config: BackupConfig): EmbeddedData {
  if (config.databaseUrl) {
    throw new BackupError(
      'Letterset is configured for a PostgreSQL server (DATABASE_URL is set), so there is no embedded ' +
        `database to back up or restore here. Use pg_dump and pg_restore: see ${readmeSection}.`,
    );
  }
  if (config.storage.kind !== 'local') {
    throw new BackupError(
      'Letterset keeps its files in an S3 bucket (STORAGE=s3), which this command cannot copy. ' +
        `Back up the bucket with its versioning or aws s3 sync, and the database with pg_dump: see ${readmeSection}.`,
    );
  }
  const dataDir = path.resolve(config.dataDir);
  const databaseDir = path.join(dataDir, 'pglite');
  const filesDir = path.resolve(config.storage.dir);
  if (isSameOrInside(filesDir, dataDir) || isSameOrInside(databaseDir, filesDir)) {
    throw new BackupError(
      `FILES_DIR (${filesDir}) must be a folder of its own, not the data folder, one that holds it, ` +
        'or one inside the database folder.',
    );
  }
  return { dataDir, databaseDir, filesDir };
}

/** Whether `inner` is `outer` or somewhere below it. */
export function isSameOrInside(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** PostgreSQL writes PG_VERSION when it creates a data directory: no such file, no database. */
export async function hasDatabase(databaseDir: string): Promise<boolean> {
  return (await stat(path.join(databaseDir, 'PG_VERSION')).catch(() => null))?.isFile() ?? false;
}

/** The last migration a database has applied, by its name in the migrations folder. */
export interface MigrationState {
  /** The migration's name (`0008_dynamic_content`), or null when this release does not know it. */
  tag: string | null;
  /** Drizzle's timestamp of the migration: later migrations have larger ones. */
  createdAt: number;
  /** How many migrations the database has applied. */
  applied: number;
}

interface JournalEntry {
  when: number;
  tag: string;
}

let journal: Promise<JournalEntry[]> | undefined;

/** The migrations this release of Letterset ships, oldest first. */
export function knownMigrations(): Promise<JournalEntry[]> {
  journal ??= readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8').then(
    (text) => (JSON.parse(text) as { entries: JournalEntry[] }).entries,
  );
  return journal;
}

/** Reads Drizzle's record of applied migrations; null for a database that was never migrated. */
export async function readMigrationState(pglite: PGlite): Promise<MigrationState | null> {
  const table = await pglite.query<{ present: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!table.rows[0]?.present) return null;
  const { rows } = await pglite.query<{ created_at: string | number; applied: number }>(
    'select max(created_at) as created_at, count(*)::int as applied from drizzle.__drizzle_migrations',
  );
  const row = rows[0];
  if (!row || row.applied === 0 || row.created_at === null) return null;
  const createdAt = Number(row.created_at);
  const tag = (await knownMigrations()).find((entry) => entry.when === createdAt)?.tag ?? null;
  return { tag, createdAt, applied: row.applied };
}

/** How many regular files a folder holds, and their bytes (zero for a folder that does not exist). */
export async function countFiles(
  folder: string,
  include: (name: string) => boolean = () => true,
): Promise<{ files: number; bytes: number }> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  let files = 0;
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !include(entry.name)) continue;
    files += 1;
    bytes += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}

/** What a command prints when it stops: the message alone for a refusal it explains, else the stack. */
export function failureMessage(command: 'Backup' | 'Restore', error: unknown): string {
  if (error instanceof BackupError || error instanceof ConfigError || error instanceof DataDirLockedError) {
    return `${command} refused: ${error.message}`;
  }
  return `${command} failed: ${error instanceof Error ? error.stack : String(error)}`;
}
