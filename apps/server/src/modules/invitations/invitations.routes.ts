import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, RequestBody, ref, Token } from '../../http/schemas.ts';
import { Me, Password } from '../me/me.schemas.ts';
import { describeMe } from '../me/me.service.ts';
import { startSession } from '../sessions/sessions.service.ts';
import { authenticateAs } from '../sessions/sign-in-principal.ts';
import { acceptInvitation, findInvitation } from './invitations.service.ts';

const InvitationParams = Type.Object({ token: Token() });
const Invitation = Type.Object({
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  organization_name: Type.String(),
});

export const invitationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/invitations/:token',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'getInvitation',
        tags: ['Users'],
        summary: 'Who an invitation link is for',
        description: '404 when the link was used, replaced by a newer invitation, or is over 7 days old.',
        security: [],
        params: InvitationParams,
        response: { 200: Invitation, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const invitation = await findInvitation(app.services, request.params.token);
      return {
        email: invitation.email,
        first_name: invitation.firstName,
        last_name: invitation.lastName,
        organization_name: invitation.organizationName,
      };
    },
  );

  app.post(
    '/api/v1/invitations/:token/accept',
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'acceptInvitation',
        tags: ['Users'],
        summary: 'Accept an invitation: set your password and sign in',
        security: [],
        params: InvitationParams,
        body: RequestBody({ password: Password }),
        response: { 200: ref(Me), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const userId = await acceptInvitation(app.services, request.params.token, request.body.password);
      await startSession(app.services, request, reply, userId);
      return describeMe(
        app.services,
        await authenticateAs(app.services, request, userId, 'session'),
        app.principalCache,
      );
    },
  );
};
