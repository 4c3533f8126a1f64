import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { CreateUserBody, ListUsersQuery, UpdateUserBody, User, UserParams } from './users.schemas.ts';
import { changeRole, getUser, inviteUser, listUsers, removeUser, resendInvitation } from './users.service.ts';

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/users',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listUsers',
        tags: ['Users'],
        summary: 'List the people of the organization',
        querystring: ListUsersQuery,
        response: { 200: ListResponse(ref(User)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) =>
      listUsers(app.services, principalOf(request), request.query.search, pageRequest(request.query)),
  );

  app.post(
    '/api/v1/users',
    {
      config: { permission: 'create_users' },
      schema: {
        operationId: 'createUser',
        tags: ['Users'],
        summary: 'Invite a person to the organization',
        description:
          'Creates the user and emails them a one-time link (valid 7 days) to set their password. They join the ' +
          'given workspaces and teams, and every workspace with auto_join. Teams must belong to the selected workspaces. ' +
          'You may give only a role whose every permission key you hold yourself (else 403, naming the keys you lack).',
        body: CreateUserBody,
        response: { 200: ref(User), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => inviteUser(app.services, principalOf(request), request.body),
  );

  app.get(
    '/api/v1/users/:id',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getUser',
        tags: ['Users'],
        summary: 'Get a user',
        params: UserParams,
        response: { 200: ref(User), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getUser(app.services, principalOf(request), request.params.id),
  );

  app.post(
    '/api/v1/users/:id/invitation',
    {
      config: { permission: 'create_users' },
      schema: {
        operationId: 'resendUserInvitation',
        tags: ['Users'],
        summary: 'Send an invited person a new invitation link',
        description:
          'For someone who has not set a password yet, whether their invitation is pending or expired: emails a ' +
          'new one-time link, valid 7 days, and the previous link stops working. 422 for someone who has already ' +
          'joined; 403 when their role holds a permission key you lack.',
        params: UserParams,
        response: { 200: ref(User), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => resendInvitation(app.services, principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/users/:id',
    {
      config: { permission: 'update_users' },
      schema: {
        operationId: 'updateUser',
        tags: ['Users'],
        summary: "Change a user's role",
        description:
          'You must hold every permission key of the person’s current role and of the new role (else 403, naming ' +
          'the keys you lack). The organization always keeps an active person holding both update_roles and ' +
          'update_users: a change that would leave none is refused (422).',
        params: UserParams,
        body: UpdateUserBody,
        response: { 200: ref(User), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      changeRole(app.services, principalOf(request), request.params.id, request.body.role_id),
  );

  app.delete(
    '/api/v1/users/:id',
    {
      config: { permission: 'delete_users' },
      schema: {
        operationId: 'deleteUser',
        tags: ['Users'],
        summary: 'Remove a user from the organization',
        description:
          'They can no longer sign in and their API keys are revoked; what they wrote keeps their name. ' +
          'You cannot remove yourself (400), nor someone whose role holds a permission key you lack (403), nor ' +
          'the last active person holding both update_roles and update_users (422).',
        params: UserParams,
        response: {
          204: Type.Null({ description: 'Removed' }),
          ...errorResponses(400, 401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      await removeUser(app.services, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
