import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.ts';
import { sessionCookieName } from '../../http/openapi.ts';
import { totpCode } from '../../security/totp.ts';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { backoffSlotsWithin } from '../../test/sign-in-backoff.ts';
import { signInLimits } from './sessions.service.ts';

describe('sessions', () => {
  let app: TestApp;
  let organization: TestOrganization;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
  });
  afterAll(() => app.close());

  const signIn = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/v1/session', payload, headers });

  it('signs in with email (any case) and password: an httpOnly, SameSite=Lax cookie and who you are', async () => {
    const response = await signIn({
      email: organization.admin.email.toUpperCase(),
      password: organization.admin.password,
    });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((candidate) => candidate.name === sessionCookieName);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(response.json()).toMatchObject({
      user: { id: organization.admin.id, email: organization.admin.email },
      role: { name: 'Admin', builtin: true },
      workspaces: [{ id: organization.workspaceId, name: 'Main workspace' }],
    });
    expect(response.json().permissions).toHaveLength(73);
    expect(response.body).not.toContain('password');
  });

  it('refuses a wrong password or an unknown email with the same 401', async () => {
    const wrongPassword = await signIn({ email: organization.admin.email, password: 'not the password' });
    const unknownEmail = await signIn({ email: 'nobody@example.com', password: 'not the password' });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Email or password is incorrect' });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('answers /me with the session, and 401 after signing out', async () => {
    const headers = await signInAs(app, organization.admin);
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers })).statusCode).toBe(200);
    const signOut = await app.inject({ method: 'DELETE', url: '/api/v1/session', headers });
    expect(signOut.statusCode).toBe(204);
    expect(signOut.cookies.find((candidate) => candidate.name === sessionCookieName)?.value).toBe('');
    const after = await app.inject({ method: 'GET', url: '/api/v1/me', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      code: 'authentication_required',
      message: 'You need to sign in or provide a valid API key',
    });
  });

  it('refuses an expired session', async () => {
    const headers = await signInAs(app, organization.admin);
    await app.services.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, organization.admin.id));
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers })).statusCode).toBe(401);
  });

  it('refuses cookie-authenticated writes from another site (CSRF), but not reads', async () => {
    const { cookie } = await signInAs(app, organization.admin);
    const write = (headers: Record<string, string>) =>
      app.inject({
        method: 'PATCH',
        url: '/api/v1/me',
        headers: { cookie, ...headers },
        payload: { first_name: 'Ada' },
      });
    const crossSite = await write({ origin: 'https://evil.example.com' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toEqual({ code: 'permission_denied', message: 'Cross-site request refused' });
    expect((await write({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await write({ origin: 'http://localhost:80' })).statusCode).toBe(200);
    expect((await write({})).statusCode).toBe(200);
    const read = await app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { cookie, origin: 'https://evil.example.com' },
    });
    expect(read.statusCode).toBe(200);
  });

  it('refuses a malformed Authorization header instead of falling back to the cookie', async () => {
    const { cookie } = await signInAs(app, organization.admin);
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { cookie, authorization: 'Basic abc' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      code: 'authentication_required',
      message: 'Send the API key as "Authorization: Bearer <key>"',
    });
  });

  it('changes the password only with the current one, and signs out other browsers', async () => {
    const user = await createTestUser(app, organization);
    const mine = await signInAs(app, user);
    const other = await signInAs(app, user);
    const wrong = await app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: mine,
      payload: { current_password: 'nope', new_password: 'a brand new password' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ current_password: ['is not your current password'] });
    const changed = await app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: mine,
      payload: { current_password: user.password, new_password: 'a brand new password' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: mine })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: other })).statusCode).toBe(401);
    expect((await signIn({ email: user.email, password: 'a brand new password' })).statusCode).toBe(200);
  });

  it('edits names and notification preferences, refusing unknown kinds', async () => {
    const user = await createTestUser(app, organization);
    const headers = await signInAs(app, user);
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers,
      payload: {
        first_name: 'Grace',
        wants_marketing_emails: true,
        disabled_email_notifications: ['review_approved'],
      },
    });
    expect(response.json().user).toMatchObject({
      first_name: 'Grace',
      wants_marketing_emails: true,
      disabled_email_notifications: ['review_approved'],
    });
    const bad = await app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers,
      payload: { disabled_email_notifications: ['spam'] },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['disabled_email_notifications.0']);
  });
});

describe('two-factor sign-in', () => {
  let app: TestApp;
  let organization: TestOrganization;
  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
  });
  afterAll(() => app.close());

  it('enrols with a code, then asks for the code at sign-in', async () => {
    const user = await createTestUser(app, organization);
    const headers = await signInAs(app, user);
    const enrolment = await app.inject({ method: 'POST', url: '/api/v1/me/two_factor', headers });
    expect(enrolment.statusCode).toBe(200);
    const { secret, otpauth_uri } = enrolment.json();
    expect(otpauth_uri).toContain(`secret=${secret}`);

    const wrong = await app.inject({
      method: 'POST',
      url: '/api/v1/me/two_factor/confirm',
      headers,
      payload: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(422);
    const confirm = await app.inject({
      method: 'POST',
      url: '/api/v1/me/two_factor/confirm',
      headers,
      payload: { code: totpCode(secret, Date.now()) },
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json().user.two_factor_enabled).toBe(true);
    expect(confirm.body).not.toContain(secret);

    const passwordOnly = await app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { email: user.email, password: user.password },
    });
    expect(passwordOnly.statusCode).toBe(401);
    expect(passwordOnly.json()).toEqual({
      message: 'Enter the code from your authenticator app',
      two_factor_required: true,
    });
    expect(passwordOnly.cookies).toHaveLength(0);

    const badCode = await app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { email: user.email, password: user.password, two_factor_code: '123456' },
    });
    expect(badCode.statusCode).toBe(401);
    expect(badCode.json().two_factor_required).toBe(true);

    const withCode = await app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { email: user.email, password: user.password, two_factor_code: totpCode(secret, Date.now()) },
    });
    expect(withCode.statusCode).toBe(200);

    const disable = await app.inject({
      method: 'POST',
      url: '/api/v1/me/two_factor/disable',
      headers,
      payload: { code: totpCode(secret, Date.now()) },
    });
    expect(disable.json().user.two_factor_enabled).toBe(false);
  });
});

describe('sign-in throttling', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const attempt = (
    email: string,
    password: string,
    remoteAddress: string,
    extra: { headers?: Record<string, string>; two_factor_code?: string } = {},
  ) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/session',
      remoteAddress,
      headers: extra.headers ?? {},
      payload: {
        email,
        password,
        ...(extra.two_factor_code ? { two_factor_code: extra.two_factor_code } : {}),
      },
    });
  const { freeFailuresPerSubject } = signInLimits;

  it('slows the address that keeps failing, with Retry-After, while the owner signs in from another', async () => {
    const { admin } = await createTestOrganization(app);
    for (let failure = 0; failure < freeFailuresPerSubject; failure++)
      expect((await attempt(admin.email, 'guess', '203.0.113.7')).statusCode).toBe(401);
    const slowed = await attempt(admin.email, admin.password, '203.0.113.7');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('2');
    expect(slowed.json()).toEqual({
      code: 'rate_limited',
      message: 'Too many failed sign-ins from your address; try again in 2 seconds',
    });
    expect(slowed.cookies).toHaveLength(0);

    const owner = await attempt(admin.email.toUpperCase(), admin.password, '198.51.100.4');
    expect(owner.statusCode).toBe(200);
  });

  it('never counts a right password as a failure', async () => {
    const { admin } = await createTestOrganization(app);
    for (let success = 0; success < freeFailuresPerSubject + 3; success++)
      expect((await attempt(admin.email, admin.password, '203.0.113.8')).statusCode).toBe(200);
    for (let failure = 0; failure < freeFailuresPerSubject; failure++)
      expect((await attempt(admin.email, 'guess', '203.0.113.8')).statusCode).toBe(401);
    expect((await attempt(admin.email, 'guess', '203.0.113.8')).statusCode).toBe(429);
  });

  it('checks at most the free number of 30 parallel wrong passwords from one address; the rest wait', async () => {
    const { admin } = await createTestOrganization(app);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => attempt(admin.email, 'parallel guess', '203.0.113.9')),
    );
    const elapsedMs = performance.now() - started;
    const checked = answers.filter((answer) => answer.statusCode === 401);
    const slowed = answers.filter((answer) => answer.statusCode === 429);
    // Exactly the free ones, unless a loaded machine took past 2 s and the back-off allowed more.
    expect(checked.length).toBeGreaterThanOrEqual(freeFailuresPerSubject);
    expect(checked.length).toBeLessThanOrEqual(freeFailuresPerSubject + backoffSlotsWithin(elapsedMs));
    expect(checked.length + slowed.length).toBe(30);
    for (const answer of slowed) expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await attempt(admin.email, admin.password, '198.51.100.9')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For unless the proxy is trusted: a guesser cannot pose as new addresses', async () => {
    const { admin } = await createTestOrganization(app);
    for (let failure = 0; failure < freeFailuresPerSubject; failure++) {
      const headers = { 'x-forwarded-for': `192.0.2.${failure + 1}` };
      expect((await attempt(admin.email, 'guess', '203.0.113.10', { headers })).statusCode).toBe(401);
    }
    const headers = { 'x-forwarded-for': '192.0.2.200' };
    expect((await attempt(admin.email, 'guess', '203.0.113.10', { headers })).statusCode).toBe(429);
  });

  it('behind a trusted proxy, counts the client address it forwards', async () => {
    const proxied = await buildTestApp({ config: { trustProxy: ['loopback'] } });
    try {
      const { admin } = await createTestOrganization(proxied);
      const through = (password: string, client: string) =>
        proxied.inject({
          method: 'POST',
          url: '/api/v1/session',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client },
          payload: { email: admin.email, password },
        });
      for (let failure = 0; failure < freeFailuresPerSubject; failure++)
        expect((await through('guess', '203.0.113.11')).statusCode).toBe(401);
      expect((await through(admin.password, '203.0.113.11')).statusCode).toBe(429);
      expect((await through(admin.password, '198.51.100.11')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('lets a web app on another allowed origin read Retry-After', async () => {
    const crossOrigin = await buildTestApp({ config: { corsOrigins: ['https://app.example.com'] } });
    try {
      const { admin } = await createTestOrganization(crossOrigin);
      const answers = [];
      for (let failure = 0; failure <= freeFailuresPerSubject; failure++)
        answers.push(
          await crossOrigin.inject({
            method: 'POST',
            url: '/api/v1/session',
            remoteAddress: '203.0.113.13',
            headers: { origin: 'https://app.example.com' },
            payload: { email: admin.email, password: 'guess' },
          }),
        );
      const slowed = answers.at(-1);
      expect(slowed?.statusCode).toBe(429);
      expect(slowed?.headers['access-control-expose-headers']).toBe('Retry-After');
    } finally {
      await crossOrigin.close();
    }
  });

  it('counts wrong two-factor codes, but not the step that asks for the code', async () => {
    const organization = await createTestOrganization(app);
    const user = await createTestUser(app, organization);
    const headers = await signInAs(app, user);
    const { secret } = (await app.inject({ method: 'POST', url: '/api/v1/me/two_factor', headers })).json();
    await app.inject({
      method: 'POST',
      url: '/api/v1/me/two_factor/confirm',
      headers,
      payload: { code: totpCode(secret, Date.now()) },
    });
    for (let ask = 0; ask < freeFailuresPerSubject + 2; ask++) {
      const asked = await attempt(user.email, user.password, '203.0.113.12');
      expect(asked.statusCode).toBe(401);
      expect(asked.json().two_factor_required).toBe(true);
    }
    const wrongCode = totpCode(secret, Date.now()) === '000000' ? '111111' : '000000';
    for (let failure = 0; failure < freeFailuresPerSubject; failure++)
      expect(
        (await attempt(user.email, user.password, '203.0.113.12', { two_factor_code: wrongCode })).statusCode,
      ).toBe(401);
    const slowed = await attempt(user.email, user.password, '203.0.113.12', {
      two_factor_code: totpCode(secret, Date.now()),
    });
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('2');
  });
});

describe('the session cookie behind https', () => {
  it('is marked Secure when the public URL is https', async () => {
    const app = await buildTestApp({ config: { publicApiUrl: 'https://letterset.example' } });
    try {
      const organization = await createTestOrganization(app);
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { email: organization.admin.email, password: organization.admin.password },
      });
      expect(response.cookies.find((candidate) => candidate.name === sessionCookieName)?.secure).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('sessions are stored as digests', () => {
  it('never keeps the cookie value itself', async () => {
    const app = await buildTestApp();
    try {
      const organization = await createTestOrganization(app);
      const headers = await signInAs(app, organization.admin);
      const token = headers.cookie?.split('=')[1] ?? '';
      const rows = await app.services.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, organization.admin.id));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((row) => row.tokenHash)).not.toContain(token);
    } finally {
      await app.close();
    }
  });
});
