import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  CreateFeedBody,
  Feed,
  FeedParams,
  FeedRunResult,
  RunFeedBody,
  UpdateFeedBody,
} from './feeds.schemas.ts';
import { createFeed, deleteFeed, getFeed, listFeeds, runFeed, updateFeed } from './feeds.service.ts';

const crudRoutes = workspaceCrudRoutes<number>({
  path: 'feeds',
  tag: 'Feeds',
  name: { singular: 'Feed', plural: 'Feeds', words: 'feed' },
  permissions: { create: 'manage_feeds', update: 'manage_feeds', delete: 'manage_feeds' },
  schemas: { item: Feed, create: CreateFeedBody, update: UpdateFeedBody, itemParams: FeedParams },
  descriptions: {
    create: 'Header values are stored as given and only ever returned masked.',
    update:
      'A header sent back with its masked value keeps its stored value. A URL moved to another scheme, host or ' +
      'port drops the stored header values that the same change does not give again (secrets_cleared lists them): ' +
      'a header is never sent to an address it was not entered for.',
    delete:
      'A feed that components use cannot be deleted (422 naming them): choose another feed for them first.',
  },
  service: { list: listFeeds, create: createFeed, get: getFeed, update: updateFeed, delete: deleteFeed },
});

export const feedsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(crudRoutes);
  app.post(
    '/api/v1/workspaces/:workspace_id/feeds/:id/run',
    {
      config: { permission: ['manage_feeds', 'update_emails'] },
      schema: {
        operationId: 'runFeed',
        tags: ['Feeds'],
        summary: 'Run a feed',
        description:
          'Needs manage_feeds or update_emails (whoever sets a feed up, or fills emails from it). ' +
          'Requests the feed’s URL (rendered with the parameters, each value URL-encoded) with its headers and ' +
          'extracts its fields. Only http(s); private, ' +
          'loopback and link-local addresses are refused unless the server allows them; 10 s and 1 MB at most; ' +
          'redirects are not followed. Problems of the remote side come back in error.',
        params: FeedParams,
        body: RunFeedBody,
        response: { 200: ref(FeedRunResult), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => runFeed(app.services, workspaceOf(request).id, request.params.id, request.body),
  );
};
