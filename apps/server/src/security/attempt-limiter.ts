import { and, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { limitedAttempts } from '../db/schema.ts';
import { tokenDigest } from './tokens.ts';

/**
 * How an attempt limiter slows a key down. Failures are counted per (source, subject), e.g. an
 * address and an account, and per source across its subjects. Each count has a number of free
 * failures; past them, the next attempt waits `2^(k+1)` seconds after the latest failure, k being
 * the failures beyond the free ones (0 for the first), and never more than `maxDelaySeconds`.
 */
export interface AttemptLimits {
  /** Failures older than this are forgotten. */
  windowMs: number;
  /** Failures of one source for one subject before it must wait. */
  freeFailuresPerSubject: number;
  /** Failures of one source across all its subjects before it must wait. */
  freeFailuresPerSource: number;
  maxDelaySeconds: number;
}

/** What a key's failures in the window come to: how many, and when the latest one started. */
export interface FailureTally {
  count: number;
  latestMs: number | null;
}

/** The wait after `count` failures of which `freeFailures` were free, in milliseconds. */
export function backoffDelayMs(count: number, freeFailures: number, maxDelaySeconds: number): number {
  if (count < freeFailures) return 0;
  const beyond = count - freeFailures;
  // 2^(beyond+1) outgrows any sane cap long before it outgrows a double; min() keeps it bounded.
  return Math.min(maxDelaySeconds, 2 ** Math.min(beyond + 1, 52)) * 1000;
}

/** Milliseconds until the next attempt may start, given the tallies; 0 when it may start now. */
export function waitMs(
  limits: AttemptLimits,
  tallies: { subject: FailureTally; source: FailureTally },
  nowMs: number,
): number {
  const wait = (tally: FailureTally, freeFailures: number) => {
    const delay = backoffDelayMs(tally.count, freeFailures, limits.maxDelaySeconds);
    if (delay === 0 || tally.latestMs === null) return 0;
    return Math.max(0, tally.latestMs + delay - nowMs);
  };
  return Math.max(
    wait(tallies.subject, limits.freeFailuresPerSubject),
    wait(tallies.source, limits.freeFailuresPerSource),
  );
}

/** The limiter's answer, decided at `atMs` by its clock (the reservation's time when admitted). */
/**
 * Makes the current transaction's commit return before its record reaches the disk. Attempt rows
 * are worth no more: a crash may forget the last fraction of a second of attempts, and every
 * sign-in is spared the wait for a disk flush, most of what a reservation costs on PostgreSQL.
 * Other sessions see the commit at once either way, so counting stays exact.
 */
const commitWithoutDiskWait = sql`set_config('synchronous_commit', 'off', true)`;

export type Reservation =
  | { admitted: true; id: number; atMs: number }
  | { admitted: false; retryAfterSeconds: number; atMs: number };

/**
 * Slows down guessing with back-off instead of locking anything. An attempt is reserved in the
 * database before the guess is checked: under a transaction lock on its source, the limiter
 * counts the source's attempts in the window (the reserved ones included) and, if no wait is
 * due, inserts the new one, so N parallel guesses count as N on every server process sharing the
 * database. A reservation counts as a failure until `release()` (the guess was right) deletes
 * it; `fail()` leaves it. Because failures are counted per source, a source that has not been
 * failing is never slowed by another source's failures, whatever subject they were against.
 */
export class AttemptLimiter {
  private readonly db: Database;
  private readonly name: string;
  private readonly limits: AttemptLimits;
  private readonly now: () => number;

  constructor(options: {
    db: Database;
    /** Tells this limiter's rows apart from other limiters' in the shared table. */
    name: string;
    limits: AttemptLimits;
    now?: () => number;
  }) {
    this.db = options.db;
    this.name = options.name;
    this.limits = options.limits;
    this.now = options.now ?? Date.now;
  }

  async reserve(key: { source: string; subject: string }): Promise<Reservation> {
    const sourceDigest = tokenDigest(key.source);
    const subjectDigest = tokenDigest(key.subject);
    return this.db.transaction(async (tx) => {
      // Every attempt of this source takes this lock first, so the count below sees every
      // reservation committed before it, on any process; other sources are not held up.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`${this.name}:${sourceDigest}`})), ${commitWithoutDiskWait}`,
      );
      const now = this.now();
      const [tally] = await tx
        .select({
          subjectCount:
            sql<number>`count(*) filter (where ${limitedAttempts.subjectDigest} = ${subjectDigest})`.mapWith(
              Number,
            ),
          subjectLatest:
            sql<Date | null>`max(${limitedAttempts.attemptedAt}) filter (where ${limitedAttempts.subjectDigest} = ${subjectDigest})`.mapWith(
              limitedAttempts.attemptedAt,
            ),
          sourceCount: sql<number>`count(*)`.mapWith(Number),
          sourceLatest: sql<Date | null>`max(${limitedAttempts.attemptedAt})`.mapWith(
            limitedAttempts.attemptedAt,
          ),
        })
        .from(limitedAttempts)
        .where(
          and(
            eq(limitedAttempts.limiter, this.name),
            eq(limitedAttempts.sourceDigest, sourceDigest),
            sql`${limitedAttempts.attemptedAt} > ${new Date(now - this.limits.windowMs)}`,
          ),
        );
      const wait = waitMs(
        this.limits,
        {
          subject: { count: tally?.subjectCount ?? 0, latestMs: tally?.subjectLatest?.getTime() ?? null },
          source: { count: tally?.sourceCount ?? 0, latestMs: tally?.sourceLatest?.getTime() ?? null },
        },
        now,
      );
      if (wait > 0)
        return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)), atMs: now };
      const [reserved] = await tx
        .insert(limitedAttempts)
        .values({ limiter: this.name, sourceDigest, subjectDigest, attemptedAt: new Date(now) })
        .returning({ id: limitedAttempts.id });
      if (!reserved) throw new Error('reserving an attempt inserted no row');
      return { admitted: true, id: reserved.id, atMs: now };
    });
  }

  /** The guess was right: it never counts as a failure. */
  async release(reservationId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select ${commitWithoutDiskWait}`);
      await tx.delete(limitedAttempts).where(eq(limitedAttempts.id, reservationId));
    });
  }

  /**
   * The guess was wrong: its reservation already stands as a failure and stays until it leaves
   * the window. Here the failures that did leave it are deleted.
   */
  async fail(): Promise<void> {
    // Failures that left the window never count again: each is deleted by a later failure.
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select ${commitWithoutDiskWait}`);
      await tx
        .delete(limitedAttempts)
        .where(
          and(
            eq(limitedAttempts.limiter, this.name),
            lte(limitedAttempts.attemptedAt, new Date(this.now() - this.limits.windowMs)),
          ),
        );
    });
  }
}
