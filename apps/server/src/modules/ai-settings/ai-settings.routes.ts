import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  AiConnectionTest,
  AiSettings,
  AiUsage,
  AiUsageQuery,
  UpdateAiSettingsBody,
} from './ai-settings.schemas.ts';
import { getAiSettings, getAiUsage, testAiConnection, updateAiSettings } from './ai-settings.service.ts';

const tags = ['AI settings'];

export const aiSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/ai_settings',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getAiSettings',
        tags,
        summary: 'Get the organization’s AI provider',
        description:
          'Whether AI features work (`configured`) and with which provider: the organization’s own, or the server’s default. The details (provider, addresses, models, the masked key) are answered to people with update_organization only; the key itself is never returned.',
        response: { 200: ref(AiSettings), ...errorResponses(401, 403) },
      },
    },
    async (request) => getAiSettings(app.services, principalOf(request)),
  );

  app.patch(
    '/api/v1/ai_settings',
    {
      config: { permission: 'update_organization' },
      schema: {
        operationId: 'updateAiSettings',
        tags,
        summary: 'Set the organization’s AI provider',
        description:
          'The API key is stored encrypted. A literal private or loopback address in `base_url` is refused unless the server allows private network fetches; host names are checked when Letterset connects. ' +
          'Changing the provider, or the scheme, host or port of `base_url`, drops the stored key unless the same request gives a new one: the answer’s secrets_cleared then lists api_key.',
        body: UpdateAiSettingsBody,
        response: { 200: ref(AiSettings), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => updateAiSettings(app.services, principalOf(request), request.body),
  );

  app.post(
    '/api/v1/ai_settings/test',
    {
      config: { permission: 'update_organization' },
      schema: {
        operationId: 'testAiSettings',
        tags,
        summary: 'Test the AI provider',
        description:
          'Asks the model for a one-word answer; `ok: false` with the provider’s refusal in plain words.',
        response: { 200: ref(AiConnectionTest), ...errorResponses(401, 403) },
      },
    },
    async (request) => testAiConnection(app.services, principalOf(request)),
  );

  app.get(
    '/api/v1/ai_usage',
    {
      config: { permission: 'update_organization' },
      schema: {
        operationId: 'getAiUsage',
        tags,
        summary: 'AI token usage',
        description:
          'Calls and tokens of the organization’s AI features over the last `days` days, per feature and person.',
        querystring: AiUsageQuery,
        response: { 200: ref(AiUsage), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) =>
      getAiUsage(app.services, principalOf(request).organizationId, request.query.days ?? 30),
  );
};
