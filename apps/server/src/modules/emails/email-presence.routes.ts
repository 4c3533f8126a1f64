import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { NotFoundError } from '../../http/errors.ts';
import { errorResponses } from '../../http/schemas.ts';
import { presenceNameOf } from './email-presence.ts';
import { findVisibleEmail } from './email-visibility.ts';
import { EmailParams } from './emails.schemas.ts';

const SessionId = Type.String({
  minLength: 8,
  maxLength: 64,
  pattern: '^[A-Za-z0-9-]+$',
  description: 'The browser tab’s own id (a UUID): one person with two tabs open is two entries',
});

const EmailPresence = Type.Object({
  session_id: SessionId,
  user_id: Type.Integer(),
  user_name: Type.String(),
  selected_instance_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The component instance the person has selected',
  }),
  left: Type.Boolean(),
});

const PresenceBody = Type.Object({
  session_id: SessionId,
  selected_instance_id: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]),
});

export const emailPresenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const path = '/api/v1/workspaces/:workspace_id/emails/:id/presence';

  app.put(
    path,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'announceEmailPresence',
        tags: ['Emails'],
        summary: 'Say you have an email open, and what you have selected',
        description:
          'Anyone who can see the email may say so. Sent when an editor opens, when its selection changes, and ' +
          'every 10 seconds as a heartbeat: an entry not renewed for 30 seconds is gone. Every viewer of the ' +
          'email hears it as a `presence_changed` event on the email’s event stream (from every server process). ' +
          'Answers everyone who has the email open, you included.',
        params: EmailParams,
        body: PresenceBody,
        response: {
          200: Type.Object({ present: Type.Array(EmailPresence) }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const workspaceId = workspaceOf(request).id;
      const { db } = app.services.database;
      await findVisibleEmail(app.services, principal, workspaceId, request.params.id);
      const present = await app.emailEvents.presence.announce(db, request.params.id, {
        session_id: request.body.session_id,
        user_id: principal.userId,
        user_name: await presenceNameOf(db, principal.organizationId, principal.userId),
        selected_instance_id: request.body.selected_instance_id,
        left: false,
      });
      return { present };
    },
  );

  app.delete(
    `${path}/:session_id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'leaveEmailPresence',
        tags: ['Emails'],
        summary: 'Say you closed an email',
        description:
          'Sent by a closing tab (a `keepalive` request), so the others see it leave at once rather than after ' +
          'the 30 seconds without heartbeat. Only your own tabs can leave.',
        params: Type.Object({ ...EmailParams.properties, session_id: SessionId }),
        response: { 204: Type.Null({ description: 'Gone' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { id: emailId, session_id: sessionId } = request.params;
      const { db } = app.services.database;
      await findVisibleEmail(app.services, principal, workspaceOf(request).id, emailId);
      if (app.emailEvents.presence.belongsToSomeoneElse(emailId, sessionId, principal.userId)) {
        throw new NotFoundError();
      }
      await app.emailEvents.presence.announce(db, emailId, {
        session_id: sessionId,
        user_id: principal.userId,
        user_name: await presenceNameOf(db, principal.organizationId, principal.userId),
        selected_instance_id: null,
        left: true,
      });
      return reply.code(204).send(null);
    },
  );
};
