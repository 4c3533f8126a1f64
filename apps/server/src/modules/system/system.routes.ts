import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HealthResponse, ReadinessResponse } from './system.schemas.ts';
import { checkReadiness } from './system.service.ts';

export const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'getHealth',
        tags: ['System'],
        summary: 'Check that the server process is up',
        security: [],
        response: { 200: HealthResponse },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'getReadiness',
        tags: ['System'],
        summary: 'Check that the database is reachable and migrated',
        description:
          'Answers 200 when ready and 503 (same body) when not, so load balancers can use it as is.',
        security: [],
        response: { 200: ReadinessResponse, 503: ReadinessResponse },
      },
    },
    async (_request, reply) => {
      const readiness = await checkReadiness(app.services);
      return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  );
};
