import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { type Principal, sessionLifetimeMs } from '../../http/access.ts';
import { HttpError, TooManyRequestsError } from '../../http/errors.ts';
import { sessionCookieName } from '../../http/openapi.ts';
import { AttemptLimiter } from '../../security/attempt-limiter.ts';
import { verifyPassword } from '../../security/passwords.ts';
import { randomToken, tokenDigest } from '../../security/tokens.ts';
import { verifyTotp } from '../../security/totp.ts';

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
 * Ten wrong tries per account, or fifty per address, in fifteen minutes: then wait. Counted in the
 * database, so the limits hold across every server process.
 */
const signInWindowMs = 15 * 60 * 1000;
export function createSignInLimiters(db: Database, now?: () => number) {
  return {
    byEmail: new AttemptLimiter({
      db,
      name: 'sign_in_email',
      maxFailures: 10,
      windowMs: signInWindowMs,
      now,
    }),
    byAddress: new AttemptLimiter({
      db,
      name: 'sign_in_address',
      maxFailures: 50,
      windowMs: signInWindowMs,
      now,
    }),
  };
}
export type SignInLimiters = ReturnType<typeof createSignInLimiters>;

export async function signIn(
  app: App,
  limiters: SignInLimiters,
  input: { email: string; password: string; twoFactorCode: string | undefined; address: string },
): Promise<number> {
  const emailKey = input.email.toLowerCase();
  const retryAfter = Math.max(
    await limiters.byEmail.retryAfterSeconds(emailKey),
    await limiters.byAddress.retryAfterSeconds(input.address),
  );
  if (retryAfter > 0)
    throw new TooManyRequestsError(
      `Too many failed sign-ins; try again in ${Math.ceil(retryAfter / 60)} minutes`,
    );

  const fail = async (error: SignInRefusedError): Promise<never> => {
    await limiters.byEmail.recordFailure(emailKey);
    await limiters.byAddress.recordFailure(input.address);
    throw error;
  };
  const [user] = await app.database.db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${emailKey}`, isNull(users.deletedAt)));
  if (!(await verifyPassword(user?.passwordHash ?? null, input.password)) || !user) {
    return fail(new SignInRefusedError('Email or password is incorrect'));
  }
  if (user.twoFactorEnabled) {
    if (!input.twoFactorCode)
      throw new SignInRefusedError('Enter the code from your authenticator app', true);
    if (!user.twoFactorSecret || !verifyTotp(user.twoFactorSecret, input.twoFactorCode, Date.now())) {
      return fail(new SignInRefusedError('That code is not right; check your authenticator app', true));
    }
  }
  await limiters.byEmail.reset(emailKey);
  return user.id;
}

/** Creates a session and sets its cookie: httpOnly, SameSite=Lax, Secure over https. */
export async function startSession(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): Promise<void> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + sessionLifetimeMs);
  await app.database.db.insert(sessions).values({ tokenHash: tokenDigest(token), userId, expiresAt });
  reply.setCookie(sessionCookieName, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https' || app.config.publicApiUrl.startsWith('https:'),
    expires: expiresAt,
  });
}

export async function endSession(app: App, principal: Principal, reply: FastifyReply): Promise<void> {
  if (principal.sessionTokenHash) {
    await app.database.db.delete(sessions).where(eq(sessions.tokenHash, principal.sessionTokenHash));
  }
  reply.clearCookie(sessionCookieName, { path: '/' });
}
