import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { Email, EmailParams } from '../emails/emails.schemas.ts';
import { RetryEmailGenerationBody } from './ai-generation.schemas.ts';
import { retryEmailGeneration } from './email-generation-retry.ts';

export const aiGenerationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/v1/workspaces/:workspace_id/emails/:id/ai_generation/retry',
    {
      config: { permission: 'update_emails' },
      schema: {
        operationId: 'retryEmailGeneration',
        tags: ['Emails'],
        summary: 'Write an email with AI again',
        description:
          'Once the last AI generation of an email ended (failed, or finished with problems), runs it again ' +
          'with the same brief or with `prompt`, which becomes the email’s brief. The email is answered at once ' +
          'with `ai_generation_status: generating`; a background job rewrites its sections (composes them when ' +
          'it has none) and sets it `done`. 409 while a generation runs; 422 for an email not written with AI, ' +
          'one that cannot be edited, or an organization without an AI provider.',
        params: EmailParams,
        body: RetryEmailGenerationBody,
        response: { 200: ref(Email), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      retryEmailGeneration(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.body,
      ),
  );
};
