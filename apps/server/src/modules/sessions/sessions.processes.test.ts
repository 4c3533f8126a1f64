import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { createFileStorage } from '../../storage/index.ts';
import { type ChildServer, startChildServer } from '../../test/child-server.ts';
import { createTestOrganization, type TestOrganization } from '../../test/factories.ts';
import { createTestDatabase, testConfig } from '../../test/harness.ts';
import { backoffSlotsWithin } from '../../test/sign-in-backoff.ts';
import { signInLimits } from './sessions.service.ts';

/**
 * Parallel guesses spread over two server processes of one database still count as they start:
 * the attempt is reserved in the database before the password is checked. The processes stand
 * behind a proxy on loopback (TRUST_PROXY), which tells them each client's address.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('sign-in throttling on two server processes', () => {
  let database: DatabaseHandle;
  let organization: TestOrganization;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    const testDatabase = await createTestDatabase();
    database = await testDatabase.open();
    organization = await createTestOrganization({
      services: { database, storage: createFileStorage(testConfig().storage) },
    });
    const environment = {
      ...testDatabase.processEnvironment,
      RUN_JOB_WORKERS: 'false',
      TRUST_PROXY: 'loopback',
    };
    servers.push(...(await Promise.all([startChildServer(environment), startChildServer(environment)])));
    // Each process answers a sign-in first, so the burst below meets warm routes and connections.
    for (const server of servers)
      expect((await signIn(server, '198.51.100.49', organization.admin.password)).status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    for (const server of servers) server.process.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await database?.close();
  });

  const signIn = async (server: ChildServer | undefined, client: string, password: string) => {
    if (!server) throw new Error('no server');
    const response = await fetch(`${server.url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email: organization.admin.email, password }),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as { message?: string; user?: { email: string } },
    };
  };

  it('checks at most the free number of 30 parallel wrong passwords, while the owner signs in from elsewhere', async () => {
    const started = performance.now();
    const [guesses, owner] = await Promise.all([
      Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          signIn(servers[index % 2], '203.0.113.50', `guess ${index}`),
        ),
      ),
      signIn(servers[1], '198.51.100.50', organization.admin.password),
    ]);
    const elapsedMs = performance.now() - started;

    const checked = guesses.filter((guess) => guess.status === 401);
    const slowed = guesses.filter((guess) => guess.status === 429);
    console.info(
      `30 parallel wrong passwords over two processes: ${checked.length} checked (401), ${slowed.length} slowed (429); ` +
        `owner ${owner.status}; answered within ${elapsedMs.toFixed(0)} ms`,
    );
    // At most the free ones, unless a loaded machine took past 2 s and the back-off allowed more.
    expect(checked.length).toBeLessThanOrEqual(
      signInLimits.freeFailuresPerSubject + backoffSlotsWithin(elapsedMs),
    );
    expect(checked.length + slowed.length).toBe(30);
    for (const guess of slowed) {
      expect(Number(guess.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(guess.body.message).toMatch(
        new RegExp(`^Too many failed sign-ins from your address; try again in ${guess.retryAfter} seconds?$`),
      );
    }
    expect(owner.status).toBe(200);
    expect(owner.body.user?.email).toBe(organization.admin.email);
  }, 60_000);
});
