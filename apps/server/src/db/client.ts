import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'drizzle-orm/logger';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, type PgQueryResultHKT, pgSchema, text } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Config } from '../config.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The Drizzle database, whichever driver is underneath. Inside a transaction use its `tx`, never this. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/** Drizzle's own record of applied migrations (written by its migrator, read by /readyz). */
const appliedMigrations = pgSchema('drizzle').table('__drizzle_migrations', { hash: text('hash').notNull() });

/** Told the SQL text of each statement the handle's `db` sends (parameters are not passed on). */
export type QueryObserver = (query: string) => void;

interface QueryObservation {
  /** Calls `observer` for every statement from now on, until the returned function is called. */
  observeQueries(observer: QueryObserver): () => void;
}

/** An open database and what the rest of the server needs to know about the driver under it. */
export type DatabaseHandle = QueryObservation &
  (
    | { driver: 'pglite'; db: Database; pglite: PGlite; close(): Promise<void> }
    | { driver: 'postgres'; db: Database; connectionString: string; pool: pg.Pool; close(): Promise<void> }
  );

/**
 * Drizzle's logger as the one hook on every statement: with no observer (production) it only
 * looks at an empty set. Tests count the queries a request makes through it.
 */
function queryObservation(): QueryObservation & { logger: Logger } {
  const observers = new Set<QueryObserver>();
  return {
    logger: {
      logQuery(query) {
        for (const observer of observers) observer(query);
      },
    },
    observeQueries(observer) {
      // A wrapper of its own, so the same function observing twice is two observations.
      const observation: QueryObserver = (query) => observer(query);
      observers.add(observation);
      return () => observers.delete(observation);
    },
  };
}

export type DatabaseLocation =
  /** A real PostgreSQL server. */
  | { connectionString: string }
  /** PGlite files in `dataDir/pglite`, owned by this process alone (pid lock). */
  | { dataDir: string }
  /** An already open PGlite instance (tests hand in clones of a migrated template). */
  | { pglite: PGlite };

export async function openDatabase(location: DatabaseLocation): Promise<DatabaseHandle> {
  if ('connectionString' in location) {
    const pool = new pg.Pool({ connectionString: location.connectionString, max: 10 });
    const { logger, observeQueries } = queryObservation();
    return {
      driver: 'postgres',
      db: drizzleNodePostgres({ client: pool, schema, logger }),
      observeQueries,
      connectionString: location.connectionString,
      pool,
      close: () => pool.end(),
    };
  }
  if ('pglite' in location) {
    const pglite = location.pglite;
    const { logger, observeQueries } = queryObservation();
    return {
      driver: 'pglite',
      db: drizzlePglite({ client: pglite, schema, logger }),
      observeQueries,
      pglite,
      close: () => pglite.close(),
    };
  }

  await mkdir(location.dataDir, { recursive: true });
  const lock: DataDirLock = await acquireDataDirLock(location.dataDir);
  try {
    const pglite = await PGlite.create({ dataDir: path.join(location.dataDir, 'pglite') });
    const { logger, observeQueries } = queryObservation();
    return {
      driver: 'pglite',
      db: drizzlePglite({ client: pglite, schema, logger }),
      observeQueries,
      pglite,
      async close() {
        await pglite.close();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** The database of the config (PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR), open and migrated. */
export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
): Promise<DatabaseHandle> {
  const database = await openDatabase(
    config.databaseUrl ? { connectionString: config.databaseUrl } : { dataDir: config.dataDir },
  );
  try {
    await migrateDatabase(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** A constant of Letterset's own: the advisory lock that lets one process at a time migrate. */
const migrationLock = 7_312_014_551;

/**
 * Applies the checked-in SQL migrations that the database has not seen yet. On PostgreSQL under
 * an advisory lock: processes started together (a deployment) would otherwise run the same DDL at
 * once and all but one fail; with it, the first migrates and the others find nothing to do.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.driver === 'pglite') {
    await migratePglite(drizzlePglite({ client: handle.pglite, schema }), { migrationsFolder });
    return;
  }
  const client = await handle.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [migrationLock]);
    try {
      await migrateNodePostgres(drizzleNodePostgres({ client, schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [migrationLock]);
    }
  } finally {
    client.release();
  }
}

let releaseMigrationHashes: string[] | undefined;

/** Hashes of the migrations in the repository that the database has not recorded as applied. */
export async function pendingMigrations(db: Database): Promise<string[]> {
  // The migrations folder only changes with a release: read it once per process.
  releaseMigrationHashes ??= readMigrationFiles({ migrationsFolder }).map((migration) => migration.hash);
  const applied = await db.select({ hash: appliedMigrations.hash }).from(appliedMigrations);
  const appliedHashes = new Set(applied.map((row) => row.hash));
  return releaseMigrationHashes.filter((hash) => !appliedHashes.has(hash));
}
