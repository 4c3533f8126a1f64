import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
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

export const workspacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/workspaces',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listWorkspaces',
        tags: ['Workspaces'],
        summary: 'List the workspaces you can enter',
        description: 'Your memberships, or every workspace of the organization with access_all_workspaces.',
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(Workspace)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => listWorkspaces(app.services, principalOf(request), pageRequest(request.query)),
  );

  app.post(
    '/api/v1/workspaces',
    {
      config: { permission: 'create_workspaces' },
      schema: {
        operationId: 'createWorkspace',
        tags: ['Workspaces'],
        summary: 'Create a workspace',
        description: 'You become its first member.',
        body: CreateWorkspaceBody,
        response: { 201: ref(Workspace), ...errorResponses(401, 403, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createWorkspace(app.services, principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/workspaces/:id',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getWorkspace',
        tags: ['Workspaces'],
        summary: 'Get a workspace',
        params: WorkspaceParams,
        response: { 200: ref(Workspace), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getWorkspace(app.services, principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/workspaces/:id',
    {
      config: { permission: 'update_workspaces' },
      schema: {
        operationId: 'updateWorkspace',
        tags: ['Workspaces'],
        summary: 'Rename a workspace or change auto_join',
        params: WorkspaceParams,
        body: UpdateWorkspaceBody,
        response: { 200: ref(Workspace), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => updateWorkspace(app.services, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/workspaces/:id',
    {
      config: { permission: 'delete_workspaces' },
      schema: {
        operationId: 'deleteWorkspace',
        tags: ['Workspaces'],
        summary: 'Delete an empty workspace',
        description: 'Refused (422) while it has teams, and for the organization’s last workspace.',
        params: WorkspaceParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteWorkspace(app.services, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

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
