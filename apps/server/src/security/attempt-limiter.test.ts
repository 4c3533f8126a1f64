import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { limitedAttempts } from '../db/schema.ts';
import { createTestDatabase } from '../test/harness.ts';
import { AttemptLimiter, type AttemptLimits, backoffDelayMs } from './attempt-limiter.ts';

const limits: AttemptLimits = {
  windowMs: 60_000,
  freeFailuresPerSubject: 3,
  freeFailuresPerSource: 5,
  maxDelaySeconds: 10,
};

describe('backoffDelayMs', () => {
  it('is free for the first failures, then doubles from 2 s up to the cap', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 60].map((count) => backoffDelayMs(count, 3, 10) / 1000);
    expect(delays).toEqual([0, 0, 0, 2, 4, 8, 10, 10, 10]);
    expect(backoffDelayMs(10_000, 0, 900)).toBe(900_000);
  });
});

describe('AttemptLimiter', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await (await createTestDatabase()).open();
  });
  afterAll(() => database.close());

  let limiterNumber = 0;
  const limiter = (options: { limits?: AttemptLimits; now?: () => number } = {}) => {
    limiterNumber += 1;
    return new AttemptLimiter({ db: database.db, name: `test_${limiterNumber}`, limits, ...options });
  };
  /** One attempt from start to outcome, as sign-in makes it. */
  const attempt = async (
    subject: AttemptLimiter,
    key: { source: string; subject: string },
    right: boolean,
  ) => {
    const reservation = await subject.reserve(key);
    if (!reservation.admitted) return reservation.retryAfterSeconds;
    if (right) await subject.release(reservation.id);
    else await subject.fail();
    return 0;
  };

  it('slows a source down for a subject after the free failures, doubling the wait', async () => {
    let now = 1_000_000;
    const signIn = limiter({ now: () => now });
    const ada = { source: '10.0.0.1', subject: 'ada' };
    for (let failure = 0; failure < 3; failure++) expect(await attempt(signIn, ada, false)).toBe(0);
    expect(await attempt(signIn, ada, true)).toBe(2);
    now += 1_500;
    expect(await attempt(signIn, ada, true)).toBe(1);
    now += 500;
    expect(await attempt(signIn, ada, false)).toBe(0);
    expect(await attempt(signIn, ada, false)).toBe(4);
    now += 4_000;
    // A right guess is let through and never counts: the wait after it is still the 4th failure's.
    expect(await attempt(signIn, ada, true)).toBe(0);
    expect(await attempt(signIn, ada, false)).toBe(0);
    expect(await attempt(signIn, ada, false)).toBe(8);
  });

  it('never slows a source that has not been failing, whatever others did to the same subject', async () => {
    const signIn = limiter();
    for (let failure = 0; failure < 3; failure++)
      await attempt(signIn, { source: '10.0.0.1', subject: 'ada' }, false);
    expect(await attempt(signIn, { source: '10.0.0.1', subject: 'ada' }, true)).toBeGreaterThan(0);
    expect(await attempt(signIn, { source: '10.0.0.2', subject: 'ada' }, true)).toBe(0);
    expect(await attempt(signIn, { source: '10.0.0.1', subject: 'grace' }, true)).toBe(0);
  });

  it('slows a source that fails across many subjects', async () => {
    const signIn = limiter();
    for (let subject = 0; subject < 5; subject++)
      expect(await attempt(signIn, { source: '10.0.0.9', subject: `user${subject}` }, false)).toBe(0);
    expect(await attempt(signIn, { source: '10.0.0.9', subject: 'someone else' }, true)).toBe(2);
    expect(await attempt(signIn, { source: '10.0.0.8', subject: 'someone else' }, true)).toBe(0);
  });

  it('forgets failures that left the window, and deletes them', async () => {
    let now = 3_000_000;
    const signIn = limiter({ now: () => now });
    for (let failure = 0; failure < 3; failure++)
      await attempt(signIn, { source: '10.0.0.1', subject: 'old@example.com' }, false);
    expect(await attempt(signIn, { source: '10.0.0.1', subject: 'old@example.com' }, false)).toBeGreaterThan(
      0,
    );
    now += limits.windowMs;
    expect(await attempt(signIn, { source: '10.0.0.1', subject: 'old@example.com' }, false)).toBe(0);
    const rows = (await database.db.select().from(limitedAttempts)).filter(
      (row) => row.limiter === `test_${limiterNumber}`,
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain('example.com');
    expect(JSON.stringify(rows)).not.toContain('10.0.0.1');
  });

  it('counts two limiters of one name together (two server processes), and limiters of other names apart', async () => {
    const first = limiter();
    const sameNameElsewhere = new AttemptLimiter({ db: database.db, name: `test_${limiterNumber}`, limits });
    const other = limiter();
    const key = { source: '10.0.0.1', subject: 'ada' };
    await attempt(first, key, false);
    await attempt(sameNameElsewhere, key, false);
    await attempt(first, key, false);
    expect(await attempt(sameNameElsewhere, key, true)).toBe(2);
    expect(await attempt(other, key, true)).toBe(0);
  });

  it('counts parallel guesses as they start: only the free ones are checked', async () => {
    const signIn = limiter({ now: () => 5_000_000 });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => attempt(signIn, { source: '10.0.0.1', subject: 'ada' }, false)),
    );
    expect(outcomes.filter((retryAfter) => retryAfter === 0)).toHaveLength(3);
    expect(outcomes.filter((retryAfter) => retryAfter === 2)).toHaveLength(17);
  });

  /**
   * A model of the rule, checked against generated interleavings: attempts from a few sources
   * against a few subjects start in any order (a scheduler picks which step runs next, database
   * calls overlapping), some right and some wrong, while the clock moves. Whatever the order, the
   * wrong guesses that were checked obey the back-off (counted as the rule counts them), and a
   * source with no attempt under way or failed in the window is never refused.
   */
  it('never lets more guesses be checked than the back-off allows, under any interleaving', async () => {
    const model: AttemptLimits = {
      windowMs: 20_000,
      freeFailuresPerSubject: 2,
      freeFailuresPerSource: 3,
      maxDelaySeconds: 8,
    };
    const attemptArbitrary = fc.record({
      source: fc.constantFrom('10.0.0.1', '10.0.0.2', '10.0.0.3'),
      subject: fc.constantFrom('ada', 'grace'),
      right: fc.oneof(
        { weight: 1, arbitrary: fc.constant(true) },
        { weight: 3, arbitrary: fc.constant(false) },
      ),
    });
    const stepArbitrary = fc.oneof(
      { weight: 4, arbitrary: attemptArbitrary.map((step) => ({ kind: 'attempt' as const, ...step })) },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 0, max: 4_000 }).map((ms) => ({ kind: 'tick' as const, ms })),
      },
    );

    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(stepArbitrary, { minLength: 1, maxLength: 40 }),
        async (s, steps) => {
          let now = 10_000_000;
          const signIn = limiter({ limits: model, now: () => now });
          type Checked = { source: string; subject: string; atMs: number; right: boolean };
          const checked: Checked[] = [];
          const refused: { source: string; atMs: number; retryAfterSeconds: number }[] = [];
          const started: { source: string; atMs: number }[] = [];

          const everyStep = Promise.all(
            steps.map(async (step) => {
              if (step.kind === 'tick') {
                await s.schedule(Promise.resolve('tick'));
                now += step.ms;
                return;
              }
              await s.schedule(Promise.resolve(`reserve ${step.source} ${step.subject}`));
              const reservation = await signIn.reserve(step);
              if (!reservation.admitted) {
                refused.push({
                  source: step.source,
                  atMs: reservation.atMs,
                  retryAfterSeconds: reservation.retryAfterSeconds,
                });
                return;
              }
              started.push({ source: step.source, atMs: reservation.atMs });
              checked.push({
                source: step.source,
                subject: step.subject,
                atMs: reservation.atMs,
                right: step.right,
              });
              await s.schedule(Promise.resolve(`outcome ${step.right}`));
              if (step.right) await signIn.release(reservation.id);
              else await signIn.fail();
            }),
          );
          // Releases the scheduled steps one at a time, in an order of fast-check's choosing, until all ran.
          await s.waitFor(everyStep);

          const wrong = checked.filter((entry) => !entry.right);
          const obeysBackoff = (entries: Checked[], freeFailures: number) => {
            const sorted = [...entries].sort((a, b) => a.atMs - b.atMs);
            sorted.forEach((entry, index) => {
              const before = sorted
                .slice(0, index)
                .filter((earlier) => earlier.atMs > entry.atMs - model.windowMs);
              if (before.length < freeFailures) return;
              const gap = entry.atMs - (before.at(-1)?.atMs ?? 0);
              expect(
                gap,
                `${before.length} wrong guesses before one at ${entry.atMs}`,
              ).toBeGreaterThanOrEqual(backoffDelayMs(before.length, freeFailures, model.maxDelaySeconds));
            });
          };
          const groups = (key: (entry: Checked) => string) =>
            Object.values(Object.groupBy(wrong, key)).filter((group) => group !== undefined);
          for (const pair of groups((entry) => `${entry.source}/${entry.subject}`))
            obeysBackoff(pair, model.freeFailuresPerSubject);
          for (const source of groups((entry) => entry.source))
            obeysBackoff(source, model.freeFailuresPerSource);

          for (const refusal of refused) {
            expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
            expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(model.maxDelaySeconds);
            // A refusal needs that source's own attempts in the window: enough to use up its free ones.
            const ownInWindow = started.filter(
              (entry) => entry.source === refusal.source && entry.atMs > refusal.atMs - model.windowMs,
            );
            expect(ownInWindow.length).toBeGreaterThanOrEqual(model.freeFailuresPerSubject);
          }
        },
      ),
      { numRuns: Number(process.env.ATTEMPT_LIMITER_RUNS ?? 40) },
    );
  }, 120_000);
});
