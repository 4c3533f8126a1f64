import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from './attempt-limiter.ts';

describe('AttemptLimiter', () => {
  it('blocks a key after too many failures within the window, then lets it go', () => {
    let now = 0;
    const limiter = new AttemptLimiter({ maxFailures: 3, windowMs: 60_000, now: () => now });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(limiter.retryAfterSeconds('ada')).toBe(0);
      limiter.recordFailure('ada');
      now += 1_000;
    }
    expect(limiter.retryAfterSeconds('ada')).toBe(57);
    expect(limiter.retryAfterSeconds('grace')).toBe(0);
    now = 60_001;
    expect(limiter.retryAfterSeconds('ada')).toBe(0);
  });

  it('forgets a key on reset (a successful sign-in)', () => {
    const limiter = new AttemptLimiter({ maxFailures: 1, windowMs: 60_000 });
    limiter.recordFailure('ada');
    expect(limiter.retryAfterSeconds('ada')).toBeGreaterThan(0);
    limiter.reset('ada');
    expect(limiter.retryAfterSeconds('ada')).toBe(0);
  });
});
