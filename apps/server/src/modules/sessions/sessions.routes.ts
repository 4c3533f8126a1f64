import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { Me } from '../me/me.schemas.ts';
import { describeMe } from '../me/me.service.ts';
import { SignInBody, SignInRefusal } from './sessions.schemas.ts';
import { createSignInLimiter, endSession, signIn, startSession } from './sessions.service.ts';
import { authenticateAs } from './sign-in-principal.ts';

export const sessionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limiter = createSignInLimiter(app.services.database.db);

  app.post(
    '/api/v1/session',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'createSession',
        tags: ['Authentication'],
        summary: 'Sign in with email and password',
        description:
          'Sets the httpOnly session cookie and answers who you are. With two-factor authentication on, the first ' +
          'attempt answers 401 with `two_factor_required: true`; send the same request again with `two_factor_code`. ' +
          'Repeated failures from one address slow it down: 429 with `Retry-After` (seconds) says when to try again. ' +
          'An address that has not been failing is never slowed by the failures of others.',
        security: [],
        body: SignInBody,
        response: { 200: ref(Me), 401: ref(SignInRefusal), ...errorResponses(422, 429) },
      },
    },
    async (request, reply) => {
      const userId = await signIn(app.services, limiter, {
        email: request.body.email,
        password: request.body.password,
        twoFactorCode: request.body.two_factor_code,
        address: request.ip,
      });
      await startSession(app.services, request, reply, userId);
      return describeMe(
        app.services,
        await authenticateAs(app.services, request, userId, 'session'),
        app.principalCache,
      );
    },
  );

  app.delete(
    '/api/v1/session',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'deleteSession',
        tags: ['Authentication'],
        summary: 'Sign out',
        response: {
          204: Type.Null({ description: 'Signed out; the cookie is cleared' }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request, reply) => {
      await endSession(app.services, principalOf(request), reply);
      return reply.code(204).send(null);
    },
  );
};
