import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { ApiKey, ApiKeyParams, CreateApiKeyBody, CreatedApiKey } from './api-keys.schemas.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.ts';

export const apiKeysRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/api_keys',
    {
      // Everyone may list their own keys; which others' keys are listed is the service's rule.
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listApiKeys',
        tags: ['API keys'],
        summary: 'List the API keys you may see and revoke (never their secrets)',
        description:
          'Your own keys, and with `manage_api_keys` the keys of people whose every permission key you hold ' +
          '(an Admin sees every key). Keys of removed people are not listed: they stopped working.',
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(ApiKey)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => listApiKeys(app.services, principalOf(request), pageRequest(request.query)),
  );

  app.post(
    '/api/v1/api_keys',
    {
      config: { permission: 'manage_api_keys' },
      schema: {
        operationId: 'createApiKey',
        tags: ['API keys'],
        summary: 'Create an API key',
        description:
          'The answer carries the secret in `key`, this one time. Send it as `Authorization: Bearer <key>`; ' +
          'the key acts as you, with your role as it is at each request.',
        body: CreateApiKeyBody,
        response: { 200: ref(CreatedApiKey), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => createApiKey(app.services, principalOf(request), request.body.name),
  );

  app.delete(
    '/api/v1/api_keys/:id',
    {
      // Everyone may revoke their own keys; revoking others' is the service's rule.
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'revokeApiKey',
        tags: ['API keys'],
        summary: 'Revoke an API key',
        description:
          'The key stops working at once (401). You may revoke your own keys, and with `manage_api_keys` the keys ' +
          'of people whose every permission key you hold; any other key answers 404, as it is not listed for you.',
        params: ApiKeyParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await revokeApiKey(app.services, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
