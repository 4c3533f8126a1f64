import { and, desc, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { failedAttempts } from '../db/schema.ts';
import { tokenDigest } from './tokens.ts';

/**
 * Counts failures per key (an email, an IP address) in a sliding window and blocks a key that
 * failed too often. Successes do not count, so a person who types their password right is never
 * locked out by someone else's guesses against another key. The failures live in the database,
 * so every server process sharing it counts the same ones.
 */
export class AttemptLimiter {
  private readonly db: Database;
  private readonly name: string;
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: {
    db: Database;
    /** Tells this limiter's rows apart from other limiters' in the shared table. */
    name: string;
    maxFailures: number;
    windowMs: number;
    now?: () => number;
  }) {
    this.db = options.db;
    this.name = options.name;
    this.maxFailures = options.maxFailures;
    this.windowMs = options.windowMs;
    this.now = options.now ?? Date.now;
  }

  /** Seconds until the key may try again; 0 when it may try now. */
  async retryAfterSeconds(key: string): Promise<number> {
    const now = this.now();
    // The key is blocked while its maxFailures-th most recent failure is inside the window.
    const [blocking] = await this.db
      .select({ failedAt: failedAttempts.failedAt })
      .from(failedAttempts)
      .where(
        and(
          eq(failedAttempts.limiter, this.name),
          eq(failedAttempts.keyDigest, tokenDigest(key)),
          gt(failedAttempts.failedAt, new Date(now - this.windowMs)),
        ),
      )
      .orderBy(desc(failedAttempts.failedAt))
      .offset(this.maxFailures - 1)
      .limit(1);
    if (!blocking) return 0;
    return Math.max(1, Math.ceil((blocking.failedAt.getTime() + this.windowMs - now) / 1000));
  }

  async recordFailure(key: string): Promise<void> {
    const now = this.now();
    await this.db
      .insert(failedAttempts)
      .values({ limiter: this.name, keyDigest: tokenDigest(key), failedAt: new Date(now) });
    // Failures that left the window never count again: each is deleted by a later failure.
    await this.db
      .delete(failedAttempts)
      .where(
        and(
          eq(failedAttempts.limiter, this.name),
          lte(failedAttempts.failedAt, new Date(now - this.windowMs)),
        ),
      );
  }

  async reset(key: string): Promise<void> {
    await this.db
      .delete(failedAttempts)
      .where(and(eq(failedAttempts.limiter, this.name), eq(failedAttempts.keyDigest, tokenDigest(key))));
  }
}
