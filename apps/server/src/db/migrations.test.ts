import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseUrl } from '../test/database-template.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import {
  type Database,
  migrateDatabase,
  migrationsFolder,
  openDatabase,
  pendingMigrations,
} from './client.ts';
import { organizations } from './schema.ts';

describe('migrations', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('are all applied to the database the suite runs on', async () => {
    expect(readMigrationFiles({ migrationsFolder }).length).toBeGreaterThan(0);
    expect(await pendingMigrations(app.services.database.db)).toEqual([]);
    expect(app.services.database.driver).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('create tables whose timestamps are timestamptz with milliseconds', async () => {
    const [created] = await app.services.database.db
      .insert(organizations)
      .values({ name: 'Acme' })
      .returning();
    expect(created?.createdAt).toBeInstanceOf(Date);
    expect(JSON.stringify(created?.createdAt)).toMatch(/^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/);

    const before = created?.updatedAt.getTime() ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [updated] = await app.services.database.db
      .update(organizations)
      .set({ name: 'Acme Inc.' })
      .where(eq(organizations.id, created?.id ?? 0))
      .returning();
    expect(updated?.updatedAt.getTime()).toBeGreaterThan(before);
  });

  it('make /readyz answer ready, naming the driver', async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      database: { driver: app.services.database.driver, reachable: true, pending_migrations: 0 },
    });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('migrations on PostgreSQL', () => {
  it('apply once when several processes start together on an empty database', async () => {
    const template = inject('databaseTemplate');
    if (template.kind !== 'postgres') throw new Error('PostgreSQL only');
    const name = `${template.namePrefix}_empty_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: template.serverUrl });
    await admin.connect();
    try {
      await admin.query(`create database "${name}"`);
    } finally {
      await admin.end();
    }
    const connectionString = databaseUrl(template.serverUrl, name);
    const handles = await Promise.all([1, 2, 3].map(() => openDatabase({ connectionString })));
    try {
      const results = await Promise.allSettled(handles.map((handle) => migrateDatabase(handle)));
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(await pendingMigrations(handles[0]?.db as Database)).toEqual([]);
    } finally {
      for (const handle of handles) await handle.close();
    }
  });
});
