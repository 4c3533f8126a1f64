import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { sessionLifetimeMs } from '../../http/access.ts';
import { HttpError, inSeconds, TooManyRequestsError } from '../../http/errors.ts';
import { sessionCookieName } from '../../http/openapi.ts';
import type { Principal } from '../../http/principal.ts';
import { AttemptLimiter, type AttemptLimits } from '../../security/attempt-limiter.ts';
import { verifyPassword } from '../../security/passwords.ts';
import { randomToken, tokenDigest } from '../../security/tokens.ts';
import { verifyTotp } from '../../security/totp.ts';
import type { Services } from '../../services.ts';

/** A 401 that can tell the sign-in form to ask for the two-factor code. */
export class SignInRefusedError extends HttpError {
  readonly twoFactorRequired: boolean;

  constructor(message: string, twoFactorRequired = false) {
    super(401, message);
    this.twoFactorRequired = twoFactorRequired;
  }

  override toBody() {
    return this.twoFactorRequired
      ? { message: this.message, two_factor_required: true }
      : { message: this.message };
  }
}

/**
 * Sign-in slows a guesser down instead of locking an account. Failures count per (address,
 * account) and per address, for an hour: an address may get 5 passwords wrong for one account,
 * or 50 across accounts, and then waits 2 s after its latest failure, then 4 s, 8 s, … up to
 * 15 minutes. An address that has not been failing is never slowed by others' failures, so a
 * stranger cannot keep the owner out. Each attempt is reserved in the database before the
 * password is checked, so the limits hold for parallel guesses on every server process.
 */
export const signInLimits: AttemptLimits = {
  windowMs: 60 * 60 * 1000,
  freeFailuresPerSubject: 5,
  freeFailuresPerSource: 50,
  maxDelaySeconds: 15 * 60,
};

export function createSignInLimiter(db: Database, now?: () => number): AttemptLimiter {
  return new AttemptLimiter({ db, name: 'sign_in', limits: signInLimits, now });
}

export async function signIn(
  services: Pick<Services, 'database'>,
  limiter: AttemptLimiter,
  input: { email: string; password: string; twoFactorCode: string | undefined; address: string },
): Promise<number> {
  const emailKey = input.email.toLowerCase();
  const reservation = await limiter.reserve({ source: input.address, subject: emailKey });
  if (!reservation.admitted) {
    throw new TooManyRequestsError(
      reservation.retryAfterSeconds,
      `Too many failed sign-ins from your address; try again in ${inSeconds(reservation.retryAfterSeconds)}`,
    );
  }
  // Only a wrong password or code is a failure; anything else gives the reservation back.
  let wrongGuess = false;
  try {
    const [user] = await services.database.db
      .select()
      .from(users)
      .where(and(sql`lower(${users.email}) = ${emailKey}`, isNull(users.deletedAt)));
    if (!(await verifyPassword(user?.passwordHash ?? null, input.password)) || !user) {
      wrongGuess = true;
      throw new SignInRefusedError('Email or password is incorrect');
    }
    if (user.twoFactorEnabled) {
      if (!input.twoFactorCode)
        throw new SignInRefusedError('Enter the code from your authenticator app', true);
      if (!user.twoFactorSecret || !verifyTotp(user.twoFactorSecret, input.twoFactorCode, Date.now())) {
        wrongGuess = true;
        throw new SignInRefusedError('That code is not right; check your authenticator app', true);
      }
    }
    return user.id;
  } finally {
    if (wrongGuess) await limiter.fail();
    else await limiter.release(reservation.id);
  }
}

/** Creates a session and sets its cookie: httpOnly, SameSite=Lax, Secure over https. */
export async function startSession(
  services: Pick<Services, 'config' | 'database'>,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): Promise<void> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + sessionLifetimeMs);
  await services.database.db.insert(sessions).values({ tokenHash: tokenDigest(token), userId, expiresAt });
  reply.setCookie(sessionCookieName, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https' || services.config.publicApiUrl.startsWith('https:'),
    expires: expiresAt,
  });
}

export async function endSession(
  services: Pick<Services, 'database'>,
  principal: Principal,
  reply: FastifyReply,
): Promise<void> {
  if (principal.sessionTokenHash) {
    await services.database.db.delete(sessions).where(eq(sessions.tokenHash, principal.sessionTokenHash));
  }
  reply.clearCookie(sessionCookieName, { path: '/' });
}
