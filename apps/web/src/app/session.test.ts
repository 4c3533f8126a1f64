import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../shared/api-error.ts';
import { signIn } from './session.ts';

const apiCalls = vi.hoisted(() => ({ POST: vi.fn() }));
vi.mock('./api.ts', () => ({ api: apiCalls }));

function answers(status: number, body: unknown, headers: Record<string, string> = {}) {
  const ok = status >= 200 && status < 300;
  apiCalls.POST.mockResolvedValue({
    data: ok ? body : undefined,
    error: ok ? undefined : body,
    response: new Response(null, { status, headers }),
  });
}

const credentials = { email: 'ada@example.com', password: 'correct horse' };

describe('signIn', () => {
  beforeEach(() => vi.clearAllMocks());

  it('posts the credentials and answers the new session’s Me', async () => {
    const me = { user: { id: 1 } };
    answers(200, me);
    expect(await signIn(credentials)).toEqual({ kind: 'signed_in', me });
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/session', { body: credentials });
  });

  it('tells a missing or wrong second factor from a wrong password', async () => {
    answers(401, { message: 'Enter the code', two_factor_required: true });
    expect(await signIn(credentials)).toEqual({ kind: 'two_factor_required', message: 'Enter the code' });

    answers(401, { message: 'Wrong email or password', two_factor_required: false });
    expect(await signIn(credentials)).toEqual({ kind: 'refused', message: 'Wrong email or password' });
  });

  it('passes on how long to wait after too many attempts', async () => {
    answers(429, { code: 'rate_limited', message: 'Slow down' }, { 'retry-after': '30' });
    expect(await signIn(credentials)).toEqual({ kind: 'throttled', retryAfter: '30' });

    answers(429, { code: 'rate_limited', message: 'Slow down' });
    expect(await signIn(credentials)).toEqual({ kind: 'throttled', retryAfter: null });
  });

  it('hands a 422 over as an ApiError with its field messages', async () => {
    answers(422, { code: 'validation_failed', message: 'Invalid', errors: { email: ['is not an email'] } });
    const outcome = await signIn(credentials);
    expect(outcome.kind).toBe('invalid');
    if (outcome.kind !== 'invalid') return;
    expect(outcome.error).toBeInstanceOf(ApiError);
    expect(outcome.error.fieldErrors).toEqual({ email: ['is not an email'] });
  });

  it('refuses without a message when the answer has none', async () => {
    answers(502, undefined);
    expect(await signIn(credentials)).toEqual({ kind: 'refused', message: null });
  });
});
