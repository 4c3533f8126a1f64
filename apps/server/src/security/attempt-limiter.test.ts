import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { failedAttempts } from '../db/schema.ts';
import { createTestDatabase } from '../test/harness.ts';
import { AttemptLimiter } from './attempt-limiter.ts';

describe('AttemptLimiter', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await (await createTestDatabase()).open();
  });
  afterAll(() => database.close());

  let limiterNumber = 0;
  const limiter = (options: { maxFailures: number; windowMs: number; now?: () => number }) => {
    limiterNumber += 1;
    return new AttemptLimiter({ db: database.db, name: `test_${limiterNumber}`, ...options });
  };

  it('blocks a key after too many failures within the window, then lets it go', async () => {
    let now = 1_000_000;
    const byEmail = limiter({ maxFailures: 3, windowMs: 60_000, now: () => now });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await byEmail.retryAfterSeconds('ada')).toBe(0);
      await byEmail.recordFailure('ada');
      now += 1_000;
    }
    expect(await byEmail.retryAfterSeconds('ada')).toBe(57);
    expect(await byEmail.retryAfterSeconds('grace')).toBe(0);
    now = 1_060_001;
    expect(await byEmail.retryAfterSeconds('ada')).toBe(0);
  });

  it('slides: once the oldest failure leaves the window, one more failure blocks again', async () => {
    let now = 2_000_000;
    const byAddress = limiter({ maxFailures: 2, windowMs: 10_000, now: () => now });
    await byAddress.recordFailure('10.0.0.1');
    now += 6_000;
    await byAddress.recordFailure('10.0.0.1');
    expect(await byAddress.retryAfterSeconds('10.0.0.1')).toBe(4);
    now += 5_000; // the first failure is 11 s old: out of the window
    expect(await byAddress.retryAfterSeconds('10.0.0.1')).toBe(0);
    await byAddress.recordFailure('10.0.0.1');
    expect(await byAddress.retryAfterSeconds('10.0.0.1')).toBe(5);
  });

  it('forgets a key on reset (a successful sign-in), and only that key', async () => {
    const byEmail = limiter({ maxFailures: 1, windowMs: 60_000 });
    await byEmail.recordFailure('ada');
    await byEmail.recordFailure('grace');
    expect(await byEmail.retryAfterSeconds('ada')).toBeGreaterThan(0);
    await byEmail.reset('ada');
    expect(await byEmail.retryAfterSeconds('ada')).toBe(0);
    expect(await byEmail.retryAfterSeconds('grace')).toBeGreaterThan(0);
  });

  it('counts each limiter apart, and two limiters of the same name together (two server processes)', async () => {
    const first = limiter({ maxFailures: 2, windowMs: 60_000 });
    const other = limiter({ maxFailures: 2, windowMs: 60_000 });
    const sameNameElsewhere = new AttemptLimiter({
      db: database.db,
      name: `test_${limiterNumber - 1}`,
      maxFailures: 2,
      windowMs: 60_000,
    });
    await first.recordFailure('ada');
    await sameNameElsewhere.recordFailure('ada');
    expect(await first.retryAfterSeconds('ada')).toBeGreaterThan(0);
    expect(await other.retryAfterSeconds('ada')).toBe(0);
  });

  it('keeps neither the key itself nor failures that left the window', async () => {
    let now = 3_000_000;
    const byEmail = limiter({ maxFailures: 5, windowMs: 1_000, now: () => now });
    await byEmail.recordFailure('old@example.com');
    now += 2_000;
    await byEmail.recordFailure('new@example.com');
    const rows = (await database.db.select().from(failedAttempts)).filter(
      (row) => row.limiter === `test_${limiterNumber}`,
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain('example.com');
  });
});
