import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { RenderOutput, RenderParams, RenderRequest } from './renders.schemas.ts';
import { renderContent } from './renders.service.ts';

export const rendersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/v1/workspaces/:workspace_id/renders',
    {
      config: { permission: 'signed_in', writesNothing: true },
      schema: {
        operationId: 'createRender',
        tags: ['Renders'],
        summary: 'Render content against a design system',
        description:
          'For transactional email and previews: no email is created. Field values left out use the ' +
          'fields’ defaults. The plain-text version is added when asked for (`plain_text: true`). A template ' +
          'problem answers 422 naming the instance, with the Liquid line and column.',
        params: RenderParams,
        body: RenderRequest,
        response: { 200: ref(RenderOutput), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      renderContent(app.services, principalOf(request), workspaceOf(request).id, request.body),
  );
};
