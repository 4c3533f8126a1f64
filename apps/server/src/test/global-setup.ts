import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { type DatabaseHandle, migrateDatabase, openDatabase } from '../db/client.ts';
import { JobQueue } from '../jobs/queue.ts';
import { type DatabaseTemplate, databaseUrl } from './database-template.ts';

/**
 * Migrates one template database per test run (PGlite: ~5 s to create; PostgreSQL: a template
 * database) including the job queue's schema. Each test file then starts from a copy of it.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const runId = randomBytes(4).toString('hex');
  if (serverUrl) {
    const template = await createPostgresTemplate(serverUrl, runId);
    project.provide('databaseTemplate', template);
    return () => dropPostgresDatabases(serverUrl, template);
  }
  const template = await createPgliteTemplate();
  project.provide('databaseTemplate', template);
  return () => rm(template.scratchDir, { recursive: true, force: true });
}

async function prepare(database: DatabaseHandle): Promise<void> {
  await migrateDatabase(database);
  // Installing pg-boss's schema once here saves every test file a few seconds.
  const queue = await JobQueue.start(database, [], { log: pino({ enabled: false }) });
  await queue.stop();
}

async function createPgliteTemplate(): Promise<Extract<DatabaseTemplate, { kind: 'pglite' }>> {
  const scratchDir = await mkdtemp(path.join(tmpdir(), 'letterset-test-'));
  const pglite = await PGlite.create();
  const database = await openDatabase({ pglite });
  await prepare(database);
  const dump = await pglite.dumpDataDir('none');
  await database.close();
  const dumpPath = path.join(scratchDir, 'template.tar');
  await writeFile(dumpPath, new Uint8Array(await dump.arrayBuffer()));
  return { kind: 'pglite', dumpPath, scratchDir };
}

async function createPostgresTemplate(
  serverUrl: string,
  runId: string,
): Promise<Extract<DatabaseTemplate, { kind: 'postgres' }>> {
  const namePrefix = `letterset_test_${runId}`;
  const templateName = `${namePrefix}_template`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${templateName}"`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ connectionString: databaseUrl(serverUrl, templateName) });
  try {
    await prepare(database);
  } finally {
    await database.close();
  }
  return { kind: 'postgres', serverUrl, templateName, namePrefix };
}

async function dropPostgresDatabases(
  serverUrl: string,
  template: Extract<DatabaseTemplate, { kind: 'postgres' }>,
): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [template.namePrefix],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
}
