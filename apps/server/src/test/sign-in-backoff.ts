import { signInLimits } from '../modules/sessions/sessions.service.ts';
import { backoffDelayMs } from '../security/attempt-limiter.ts';

/**
 * Guesses beyond the free ones that the back-off lets through within `elapsedMs` (the first
 * after 2 s, the next 4 s later, …): none for a burst answered within 2 s.
 */
export function backoffSlotsWithin(elapsedMs: number): number {
  const { freeFailuresPerSubject: free, maxDelaySeconds } = signInLimits;
  let slots = 0;
  let waited = backoffDelayMs(free, free, maxDelaySeconds);
  while (waited <= elapsedMs) {
    slots += 1;
    waited += backoffDelayMs(free + slots, free, maxDelaySeconds);
  }
  return slots;
}
