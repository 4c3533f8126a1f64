import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ref } from '../../http/schemas.ts';
import { Me } from '../me/me.schemas.ts';
import { describeMe } from '../me/me.service.ts';
import { startSession } from '../sessions/sessions.service.ts';
import { authenticateAs } from '../sessions/sign-in-principal.ts';
import { SetupBody, SetupStatus } from './setup.schemas.ts';
import { isSetupRequired, runSetup } from './setup.service.ts';

export const setupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/setup',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'getSetupStatus',
        tags: ['Setup'],
        summary: 'Whether this Letterset server still needs its first organization',
        security: [],
        response: { 200: SetupStatus },
      },
    },
    async () => ({ setup_required: await isSetupRequired(app.services) }),
  );

  app.post(
    '/api/v1/setup',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'runSetup',
        tags: ['Setup'],
        summary: 'Create the first organization and its Admin',
        description: 'Only on an empty server: refused with 403 once any organization exists.',
        security: [],
        body: SetupBody,
        response: { 200: ref(Me), ...errorResponses(403, 422) },
      },
    },
    async (request, reply) => {
      const userId = await runSetup(app.services, request.body);
      await startSession(app.services, request, reply, userId);
      return describeMe(
        app.services,
        await authenticateAs(app.services, request, userId, 'session'),
        app.principalCache,
      );
    },
  );
};
