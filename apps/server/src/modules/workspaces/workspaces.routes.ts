import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { organizationCrudRoutes } from '../../http/organization-crud-routes.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { User } from '../users/users.schemas.ts';
import {
  AddMemberBody,
  CreateWorkspaceBody,
  UpdateWorkspaceBody,
  Workspace,
  WorkspaceMemberItemParams,
  WorkspaceMemberParams,
  WorkspaceParams,
} from './workspaces.schemas.ts';
import {
  addWorkspaceMember,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  listWorkspaceMembers,
  listWorkspaces,
  removeWorkspaceMember,
  updateWorkspace,
} from './workspaces.service.ts';

const workspaceCrud = organizationCrudRoutes({
  path: 'workspaces',
  tag: 'Workspaces',
  name: { singular: 'Workspace', plural: 'Workspaces', words: 'workspace' },
  permissions: { create: 'create_workspaces', update: 'update_workspaces', delete: 'delete_workspaces' },
  schemas: {
    item: Workspace,
    create: CreateWorkspaceBody,
    update: UpdateWorkspaceBody,
    itemParams: WorkspaceParams,
  },
  summaries: {
    list: 'List the workspaces you can enter',
    update: 'Rename a workspace or change auto_join',
    delete: 'Delete an empty workspace',
  },
  descriptions: {
    list: 'Your memberships, or every workspace of the organization with access_all_workspaces.',
    create: 'You become its first member.',
    delete: 'Refused (422) while it has teams, and for the organization’s last workspace.',
  },
  createdStatus: 201,
  service: {
    list: (services, principal, _query, page) => listWorkspaces(services, principal, page),
    create: createWorkspace,
    get: getWorkspace,
    update: updateWorkspace,
    delete: deleteWorkspace,
  },
});

export const workspacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(workspaceCrud);

  app.get(
    '/api/v1/workspaces/:workspace_id/users',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listWorkspaceUsers',
        tags: ['Workspaces'],
        summary: 'List the members of a workspace',
        params: WorkspaceMemberParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(User)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listWorkspaceMembers(app.services, workspaceOf(request).id, pageRequest(request.query)),
  );

  app.post(
    '/api/v1/workspaces/:workspace_id/users',
    {
      config: { permission: 'manage_workspace_access' },
      schema: {
        operationId: 'addWorkspaceUser',
        tags: ['Workspaces'],
        summary: 'Add a user to a workspace',
        params: WorkspaceMemberParams,
        body: AddMemberBody,
        response: { 200: ref(User), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      addWorkspaceMember(app.services, principalOf(request), workspaceOf(request).id, request.body.user_id),
  );

  app.delete(
    '/api/v1/workspaces/:workspace_id/users/:user_id',
    {
      config: { permission: 'manage_workspace_access' },
      schema: {
        operationId: 'removeWorkspaceUser',
        tags: ['Workspaces'],
        summary: 'Remove a user from a workspace (and its teams)',
        params: WorkspaceMemberItemParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await removeWorkspaceMember(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.user_id,
      );
      return reply.code(204).send(null);
    },
  );
};
