import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { errorResponses } from '../../http/schemas.ts';
import { streamEmailEvents } from './email-event-stream.ts';
import { findVisibleEmail } from './email-visibility.ts';
import { EmailParams } from './emails.schemas.ts';

export const emailEventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/workspaces/:workspace_id/emails/:id/events',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'streamEmailEvents',
        tags: ['Emails'],
        summary: 'Follow what changes on an email, live',
        description:
          'A server-sent events stream (`text/event-stream`) that stays open. Each event names what changed ' +
          '(`comments_changed` with the locale, `status_changed` with the status, `review_changed`, ' +
          '`content_changed` with the lock_version) and carries it as JSON in `data`; fetch the changed ' +
          'resource to see it. `ready` comes once you are subscribed; `resync` after the server lost track ' +
          'for a moment (reload what you show). Events come from every server process sharing the database.',
        params: EmailParams,
        response: {
          200: {
            description: 'An endless stream of `event:` / `data:` lines',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const emailId = request.params.id;
      await findVisibleEmail(app.services, principalOf(request), workspaceOf(request).id, emailId);
      reply.hijack();
      await streamEmailEvents(app.emailEvents.hub, emailId, reply.raw, app.emailEvents.openStreams);
    },
  );
};
