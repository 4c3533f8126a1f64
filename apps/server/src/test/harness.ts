import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import pg from 'pg';
import { inject } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import type { JobKind } from '../jobs/queue.ts';
import { databaseUrl } from './database-template.ts';

/** The app a test drives through `inject()`; tests name it by this, never by importing app.ts. */
export type TestApp = App;

/** A database for one test file (or one test), copied from the run's migrated template. */
export interface TestDatabase {
  driver: 'pglite' | 'postgres';
  /** Opens it; a `persistent` database can be closed and opened again (a server restart). */
  open(): Promise<DatabaseHandle>;
  /** The data folder of a `persistent` PGlite database, as a server's `DATA_DIR`. */
  dataDir?: string;
  /**
   * What a server process started on it needs in its environment: PostgreSQL, or a persistent
   * PGlite data folder (an in-memory PGlite copy cannot be shared with another process).
   */
  processEnvironment?: { DATABASE_URL: string } | { DATA_DIR: string };
}

export async function createTestDatabase(options: { persistent?: boolean } = {}): Promise<TestDatabase> {
  const template = inject('databaseTemplate');
  if (template.kind === 'postgres') {
    const name = `${template.namePrefix}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: template.serverUrl });
    await admin.connect();
    try {
      await admin.query(`create database "${name}" template "${template.templateName}"`);
    } finally {
      await admin.end();
    }
    const connectionString = databaseUrl(template.serverUrl, name);
    return {
      driver: 'postgres',
      open: () => openDatabase({ connectionString }),
      processEnvironment: { DATABASE_URL: connectionString },
    };
  }

  const dump = new Blob([await readFile(template.dumpPath)]);
  if (!options.persistent) {
    return {
      driver: 'pglite',
      open: async () => openDatabase({ pglite: await PGlite.create({ loadDataDir: dump }) }),
    };
  }
  // A real data folder, opened the way the server opens one (pid lock included).
  const dataDir = await mkdtemp(path.join(template.scratchDir, 'data-'));
  const seeded = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), loadDataDir: dump });
  await seeded.close();
  return {
    driver: 'pglite',
    dataDir,
    open: () => openDatabase({ dataDir }),
    processEnvironment: { DATA_DIR: dataDir },
  };
}

/** The config of a test app: quiet, no workers, files and mail in a fresh temporary folder. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const scratch = mkdtempSync(path.join(tmpdir(), 'letterset-test-app-'));
  return {
    ...loadConfig({ LOG_LEVEL: 'silent', PUBLIC_API_URL: 'http://localhost:3000' }),
    webDistDir: '/nonexistent',
    runJobWorkers: false,
    storage: {
      kind: 'local',
      dir: path.join(scratch, 'files'),
      publicBaseUrl: 'http://localhost:3000/files',
    },
    outboxDir: path.join(scratch, 'outbox'),
    // Connector secrets of a test's own database, sealed with a key of its own.
    secretsKey: randomBytes(32),
    ...overrides,
  };
}

export interface TestAppOptions {
  /** Defaults to a fresh copy of the template. */
  database?: TestDatabase;
  config?: Partial<Config>;
  jobKinds?: readonly JobKind[];
  /** Where the app's log lines go (silent unless the config sets a level). */
  logStream?: { write(line: string): void };
  /** Extra routes a test needs (registered before the app is ready). */
  routes?: FastifyPluginAsyncTypebox;
}

/** The real app over a copy of the migrated template; call `app.close()` when done. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const app = await buildApp(testConfig(options.config), {
    database: await database.open(),
    ...(options.jobKinds ? { jobKinds: options.jobKinds } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  if (options.routes) await app.register(options.routes);
  await app.ready();
  return app;
}

/**
 * A test app whose AI features ask a fake model server (as the server's default provider, an
 * OpenAI-compatible one) and whose job workers run, for the tests of AI generation and review.
 */
export function buildAiTestApp(
  fakeModel: { baseUrl: string },
  options: TestAppOptions = {},
): Promise<TestApp> {
  return buildTestApp({
    ...options,
    config: {
      runJobWorkers: true,
      aiDefaults: {
        provider: 'openai_compatible',
        baseUrl: fakeModel.baseUrl,
        model: 'test-model',
        imageModel: 'test-image-model',
        apiKey: undefined,
      },
      ...options.config,
    },
  });
}
