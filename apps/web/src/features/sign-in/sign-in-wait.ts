/**
 * What the sign-in form says when the server slows this address down after failed sign-ins: a
 * 429 whose Retry-After header gives the seconds to wait.
 */
export function signInWaitMessage(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  if (retryAfter === null || !Number.isFinite(seconds) || seconds <= 0)
    return 'Too many failed sign-ins from this address. Wait a little, then try again.';
  const whole = Math.ceil(seconds);
  return `Too many failed sign-ins from this address. Try again in ${whole === 1 ? '1 second' : `${whole} seconds`}.`;
}
