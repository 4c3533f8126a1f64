import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { CreateRoleBody, Role, RoleParams, UpdateRoleBody } from './roles.schemas.ts';
import { createRole, deleteRole, getRole, listRoles, updateRole } from './roles.service.ts';

export const rolesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/roles',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listRoles',
        tags: ['Roles'],
        summary: 'List roles',
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(Role)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => listRoles(app.services, principalOf(request), pageRequest(request.query)),
  );

  app.post(
    '/api/v1/roles',
    {
      config: { permission: 'create_roles' },
      schema: {
        operationId: 'createRole',
        tags: ['Roles'],
        summary: 'Create a custom role',
        description:
          'The role may hold only permission keys you hold yourself (else 403, naming the others).',
        body: CreateRoleBody,
        response: { 200: ref(Role), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => createRole(app.services, principalOf(request), request.body),
  );

  app.get(
    '/api/v1/roles/:id',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getRole',
        tags: ['Roles'],
        summary: 'Get a role',
        params: RoleParams,
        response: { 200: ref(Role), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getRole(app.services, principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/roles/:id',
    {
      config: { permission: 'update_roles' },
      schema: {
        operationId: 'updateRole',
        tags: ['Roles'],
        summary: 'Rename a custom role or change its permissions',
        description:
          'Built-in roles cannot be changed (422). You must hold every key the role has and every key you give it ' +
          '(else 403, naming the keys you lack). A change that would leave no active person holding both ' +
          'update_roles and update_users is refused (422). Users with the role get the new permissions at once.',
        params: RoleParams,
        body: UpdateRoleBody,
        response: { 200: ref(Role), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => updateRole(app.services, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/roles/:id',
    {
      config: { permission: 'delete_roles' },
      schema: {
        operationId: 'deleteRole',
        tags: ['Roles'],
        summary: 'Delete a custom role',
        description:
          'Refused (422) for built-in roles and for roles still assigned to users, and (403) when the role holds ' +
          'a permission key you lack.',
        params: RoleParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteRole(app.services, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
