/**
 * Counts failures per key (an email, an IP address) in a sliding window and blocks a key that
 * failed too often. Successes do not count, so a person who types their password right is never
 * locked out by someone else's guesses against another key. In memory: per server process.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: { maxFailures: number; windowMs: number; now?: () => number }) {
    this.maxFailures = options.maxFailures;
    this.windowMs = options.windowMs;
    this.now = options.now ?? Date.now;
  }

  /** Seconds until the key may try again; 0 when it may try now. */
  retryAfterSeconds(key: string): number {
    const recent = this.recentFailures(key);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures] ?? this.now();
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  recordFailure(key: string): void {
    this.failures.set(key, [...this.recentFailures(key), this.now()]);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recentFailures(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const recent = (this.failures.get(key) ?? []).filter((time) => time > cutoff);
    if (recent.length === 0) this.failures.delete(key);
    else this.failures.set(key, recent);
    return recent;
  }
}
