import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/access.ts';
import { organizationCrudRoutes } from '../../http/organization-crud-routes.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { CreateUserBody, ListUsersQuery, UpdateUserBody, User, UserParams } from './users.schemas.ts';
import { changeRole, getUser, inviteUser, listUsers, removeUser, resendInvitation } from './users.service.ts';

const userCrud = organizationCrudRoutes({
  path: 'users',
  tag: 'Users',
  name: { singular: 'User', plural: 'Users', words: 'user' },
  permissions: { create: 'create_users', update: 'update_users', delete: 'delete_users' },
  schemas: {
    item: User,
    create: CreateUserBody,
    update: UpdateUserBody,
    itemParams: UserParams,
    listQuery: ListUsersQuery,
  },
  summaries: {
    list: 'List the people of the organization',
    create: 'Invite a person to the organization',
    get: 'Get a user',
    update: "Change a user's role",
    delete: 'Remove a user from the organization',
  },
  descriptions: {
    create:
      'Creates the user and emails them a one-time link (valid 7 days) to set their password. They join the ' +
      'given workspaces and teams, and every workspace with auto_join. Teams must belong to the selected workspaces. ' +
      'You may give only a role whose every permission key you hold yourself (else 403, naming the keys you lack).',
    update:
      'You must hold every permission key of the person’s current role and of the new role (else 403, naming ' +
      'the keys you lack). The organization always keeps an active person holding both update_roles and ' +
      'update_users: a change that would leave none is refused (422).',
    delete:
      'They can no longer sign in and their API keys are revoked; what they wrote keeps their name. ' +
      'You cannot remove yourself (400), nor someone whose role holds a permission key you lack (403), nor ' +
      'the last active person holding both update_roles and update_users (422).',
  },
  errors: { delete: [400, 401, 403, 404, 422] },
  deletedDescription: 'Removed',
  service: {
    list: (services, principal, query, page) => listUsers(services, principal, query.search, page),
    create: inviteUser,
    get: getUser,
    update: (services, principal, id, body) => changeRole(services, principal, id, body.role_id),
    delete: removeUser,
  },
});

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(userCrud);

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
};
