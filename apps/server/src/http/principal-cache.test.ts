import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { listenerApplicationName } from '../db/channel-listener.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createTestDatabase } from '../test/harness.ts';
import type { Principal } from './principal.ts';
import { AccessChanges, changesAccess, PrincipalCache } from './principal-cache.ts';

const principal = (userId: number, organizationId = 1): Principal => ({
  userId,
  organizationId,
  roleId: 1,
  permissions: new Set(),
  via: 'api_key',
  sessionTokenHash: null,
  apiKeyId: 1,
});

describe('PrincipalCache', () => {
  it('remembers a principal until its time is up', () => {
    let now = 1_000;
    const cache = new PrincipalCache({ ttlMs: 100, now: () => now });
    cache.remember('key:a', principal(7), cache.lookupStarted());
    now += 99;
    expect(cache.get('key:a')?.principal.userId).toBe(7);
    now += 1;
    expect(cache.get('key:a')).toBeUndefined();
  });

  it('forgets one organization, or everything, and the oldest entry when full', () => {
    const cache = new PrincipalCache({ maxEntries: 3 });
    cache.remember('a', principal(1, 10), cache.lookupStarted());
    cache.remember('b', principal(2, 20), cache.lookupStarted());
    cache.remember('c', principal(3, 20), cache.lookupStarted());
    cache.remember('d', principal(4, 30), cache.lookupStarted());
    expect(cache.get('a')).toBeUndefined();
    cache.forget(20);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('d')?.principal.userId).toBe(4);
    cache.forget(null);
    expect(cache.get('d')).toBeUndefined();
  });

  it('does not keep a principal whose lookup started before a forget (it may predate the change)', () => {
    const cache = new PrincipalCache();
    const lookupStarted = cache.lookupStarted();
    cache.forget(99);
    const entry = cache.remember('a', principal(1), lookupStarted);
    expect(entry.principal.userId).toBe(1);
    expect(cache.get('a')).toBeUndefined();
    cache.remember('a', principal(1), cache.lookupStarted());
    expect(cache.get('a')).toBeDefined();
  });
});

describe('PrincipalCache answers', () => {
  const counting = () => {
    let loads = 0;
    return {
      load: async () => {
        loads += 1;
        return { loads };
      },
      loads: () => loads,
    };
  };

  it('reads an answer once per time-to-live, per organization and key', async () => {
    let now = 1_000;
    const cache = new PrincipalCache({ ttlMs: 100, now: () => now });
    const me = counting();
    expect(await cache.answer(10, 'me:1', me.load)).toEqual({ loads: 1 });
    expect(await cache.answer(10, 'me:1', me.load)).toEqual({ loads: 1 });
    expect(await cache.answer(20, 'me:1', me.load)).toEqual({ loads: 2 });
    expect(await cache.answer(10, 'me:2', me.load)).toEqual({ loads: 3 });
    now += 100;
    expect(await cache.answer(10, 'me:1', me.load)).toEqual({ loads: 4 });
  });

  it("forgets one organization's answers with its principals, or everything", async () => {
    const cache = new PrincipalCache();
    const me = counting();
    await cache.answer(10, 'me:1', me.load);
    await cache.answer(20, 'me:1', me.load);
    cache.forget(10);
    expect(await cache.answer(10, 'me:1', me.load)).toEqual({ loads: 3 });
    expect(await cache.answer(20, 'me:1', me.load)).toEqual({ loads: 2 });
    cache.forget(null);
    expect(await cache.answer(20, 'me:1', me.load)).toEqual({ loads: 4 });
  });

  it('does not keep an answer whose read a forget overtook (it may predate the change)', async () => {
    const cache = new PrincipalCache();
    const me = counting();
    const read = cache.answer(10, 'me:1', async () => {
      const answer = await me.load();
      cache.forget(10);
      return answer;
    });
    expect(await read).toEqual({ loads: 1 });
    expect(await cache.answer(10, 'me:1', me.load)).toEqual({ loads: 2 });
    expect(await cache.answer(10, 'me:1', me.load)).toEqual({ loads: 2 });
  });

  it('drops the oldest answer when full', async () => {
    const cache = new PrincipalCache({ maxEntries: 2 });
    const me = counting();
    await cache.answer(10, 'me:1', me.load);
    await cache.answer(10, 'me:2', me.load);
    await cache.answer(10, 'me:3', me.load);
    expect(await cache.answer(10, 'me:3', me.load)).toEqual({ loads: 3 });
    expect(await cache.answer(10, 'me:1', me.load)).toEqual({ loads: 4 });
  });
});

describe('AccessChanges', () => {
  const log = pino({ enabled: false });
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two server processes on one database: on PostgreSQL two connections, on PGlite the one. */
  async function twoProcesses() {
    const testDatabase = await createTestDatabase();
    const databases: DatabaseHandle[] = [await testDatabase.open()];
    databases.push(
      testDatabase.driver === 'postgres' ? await testDatabase.open() : (databases[0] as DatabaseHandle),
    );
    const processes = databases.map((database) => {
      const cache = new PrincipalCache({ ttlMs: 60_000 });
      return { cache, changes: new AccessChanges({ cache, database, log }) };
    });
    for (const { changes } of processes) await changes.listen();
    cleanups.push(async () => {
      for (const { changes } of processes) await changes.close();
      for (const database of new Set(databases)) await database.close();
    });
    return { processes, database: databases[0] as DatabaseHandle };
  }

  async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<number> {
    const started = performance.now();
    while (!check()) {
      if (performance.now() - started > timeoutMs) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return performance.now() - started;
  }

  it("makes the other process forget that organization's principals, and only those", async () => {
    const { processes } = await twoProcesses();
    const [here, there] = processes as [(typeof processes)[0], (typeof processes)[0]];
    there.cache.remember('key:revoked', principal(1, 10), there.cache.lookupStarted());
    there.cache.remember('key:other-organization', principal(2, 11), there.cache.lookupStarted());
    here.cache.remember('key:revoked', principal(1, 10), here.cache.lookupStarted());

    await here.changes.publish(10);
    expect(here.cache.get('key:revoked')).toBeUndefined();
    await eventually(() => there.cache.get('key:revoked') === undefined);
    expect(there.cache.get('key:other-organization')?.principal.userId).toBe(2);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'listens again after its connection is killed, forgetting all it remembered meanwhile',
    async () => {
      const { processes, database } = await twoProcesses();
      const [here, there] = processes as [(typeof processes)[0], (typeof processes)[0]];
      expect(there.changes.listening).toBe(true);
      if (database.driver !== 'postgres') throw new Error('runs on PostgreSQL only');
      there.cache.remember('key:a', principal(1, 10), there.cache.lookupStarted());

      const admin = new pg.Client({ connectionString: database.connectionString });
      await admin.connect();
      cleanups.push(() => admin.end());
      const { rowCount } = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
        [listenerApplicationName],
      );
      expect(rowCount).toBeGreaterThan(0);
      await eventually(() => !there.changes.listening);
      // Remembered while deaf: a change may have been announced then.
      there.cache.remember('key:b', principal(2, 12), there.cache.lookupStarted());
      await eventually(() => there.changes.listening);
      expect(there.cache.get('key:a')).toBeUndefined();
      expect(there.cache.get('key:b')).toBeUndefined();

      there.cache.remember('key:c', principal(3, 13), there.cache.lookupStarted());
      await here.changes.publish(13);
      await eventually(() => there.cache.get('key:c') === undefined);
    },
  );
});

describe('changesAccess', () => {
  it('names identity routes and not content routes', () => {
    for (const url of [
      '/api/v1/roles/:id',
      '/api/v1/users/:id',
      '/api/v1/api_keys/:id',
      '/api/v1/session',
      '/api/v1/me',
      '/api/v1/workspaces',
      '/api/v1/workspaces/:id',
      '/api/v1/workspaces/:workspace_id/users/:user_id',
      // Team memberships are part of what GET /me answers.
      '/api/v1/teams/:id',
      '/api/v1/teams/:team_id/users/:user_id',
    ]) {
      expect(changesAccess(url), url).toBe(true);
    }
    for (const url of [
      '/api/v1/workspaces/:workspace_id/emails/:id',
      '/api/v1/workspaces/:workspace_id/projects/:id',
      '/api/v1/teamsets',
      '/api/v1/roleset',
    ]) {
      expect(changesAccess(url), url).toBe(false);
    }
  });
});
