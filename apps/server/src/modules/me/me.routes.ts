import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { Me, TwoFactorCodeBody, TwoFactorEnrolment, UpdateMeBody } from './me.schemas.ts';
import {
  confirmTwoFactor,
  describeMe,
  disableTwoFactor,
  startTwoFactorEnrolment,
  updateMe,
} from './me.service.ts';

export const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/me',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getMe',
        tags: ['Authentication'],
        summary: 'Who you are: user, organization, role, permissions, workspaces',
        response: { 200: ref(Me), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      // Every write that changes this answer is an access change, which forgets it (changesAccess).
      return app.principalCache.answer(principal.organizationId, `me:${principal.userId}`, () =>
        describeMe(app.services, principal, app.principalCache),
      );
    },
  );

  app.patch(
    '/api/v1/me',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'updateMe',
        tags: ['Authentication'],
        summary: 'Edit your profile, notification preferences or password',
        description: 'A new password signs out your other browsers.',
        body: UpdateMeBody,
        response: { 200: ref(Me), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => updateMe(app.services, principalOf(request), request.body, app.principalCache),
  );

  app.post(
    '/api/v1/me/two_factor',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'startTwoFactor',
        tags: ['Authentication'],
        summary: 'Start turning on two-factor authentication',
        description: 'Answers a new secret and its otpauth:// URI; confirm with a code to turn it on.',
        response: { 200: TwoFactorEnrolment, ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => startTwoFactorEnrolment(app.services, principalOf(request)),
  );

  app.post(
    '/api/v1/me/two_factor/confirm',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'confirmTwoFactor',
        tags: ['Authentication'],
        summary: 'Turn on two-factor authentication with a code from the app',
        body: TwoFactorCodeBody,
        response: { 200: ref(Me), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) =>
      confirmTwoFactor(app.services, principalOf(request), request.body.code, app.principalCache),
  );

  app.post(
    '/api/v1/me/two_factor/disable',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'disableTwoFactor',
        tags: ['Authentication'],
        summary: 'Turn off two-factor authentication (needs a current code)',
        body: TwoFactorCodeBody,
        response: { 200: ref(Me), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) =>
      disableTwoFactor(app.services, principalOf(request), request.body.code, app.principalCache),
  );
};
