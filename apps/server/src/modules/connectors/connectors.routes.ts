import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  ConnectionTestResult,
  Connector,
  ConnectorIntegration,
  ConnectorParams,
  CreateConnectorBody,
  OAuthCallbackBody,
  UpdateConnectorBody,
} from './connectors.schemas.ts';
import {
  completeOAuth,
  createConnector,
  deleteConnector,
  getConnector,
  listConnectors,
  listIntegrations,
  testConnector,
  updateConnector,
} from './connectors.service.ts';

const crudRoutes = workspaceCrudRoutes<number>({
  path: 'connectors',
  tag: 'Connectors',
  name: { singular: 'Connector', plural: 'Connectors', words: 'connector' },
  permissions: { create: 'create_connectors', update: 'update_connectors', delete: 'delete_connectors' },
  schemas: {
    item: Connector,
    create: CreateConnectorBody,
    update: UpdateConnectorBody,
    itemParams: ConnectorParams,
  },
  descriptions: {
    create:
      'settings holds the values of the integration’s setup fields (GET /api/v1/connector_integrations lists them). ' +
      'Secret ones are stored encrypted and only ever answered masked.',
    update:
      'Only the settings sent change. A secret left out, or sent back masked, keeps its stored value, unless the ' +
      'change moves the connector to another address (Iterable’s region, Marketing Cloud’s subdomain): stored ' +
      'secrets are never sent to another address, so those the change does not give again are dropped ' +
      '(secrets_cleared lists them) and the connector needs them entered again before it works.',
    delete: 'What earlier exports made on the platform stays there; Letterset forgets it.',
  },
  service: {
    list: listConnectors,
    create: createConnector,
    get: getConnector,
    update: updateConnector,
    delete: deleteConnector,
  },
});

export const connectorsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(crudRoutes);

  app.get(
    '/api/v1/connector_integrations',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listConnectorIntegrations',
        tags: ['Connectors'],
        summary: 'List the sending platforms and what a connector to each asks for',
        response: { 200: Type.Array(ref(ConnectorIntegration)), ...errorResponses(401, 403) },
      },
    },
    async () => listIntegrations(app.services),
  );

  app.post(
    '/api/v1/workspaces/:workspace_id/connectors/:id/test',
    {
      config: { permission: 'update_connectors' },
      schema: {
        operationId: 'testConnector',
        tags: ['Connectors'],
        summary: 'Check a connector’s credentials with its platform',
        description:
          'Iterable: an authenticated read on the region’s host. Marketing Cloud: a token, then a read of Content Builder. ' +
          'The platform’s refusal comes back as ok false with a message, not as an error.',
        params: ConnectorParams,
        response: { 200: ref(ConnectionTestResult), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => testConnector(app.services, workspaceOf(request).id, request.params.id),
  );

  app.post(
    '/api/v1/connectors/oauth_callback',
    {
      config: { permission: 'update_connectors' },
      schema: {
        operationId: 'completeConnectorAuthorization',
        tags: ['Connectors'],
        summary: 'Finish connecting a Marketing Cloud connector (authorization-code flow)',
        description:
          'The web app’s /connectors/oauth-callback page, where Marketing Cloud sends the browser back, posts the ' +
          '`code` and `state` it received here. The code is exchanged for a refresh token, which is stored encrypted ' +
          'and replaced by the new one Marketing Cloud answers at each refresh.',
        body: OAuthCallbackBody,
        response: { 200: ref(Connector), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => completeOAuth(app.services, principalOf(request), request.body),
  );
};
