import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  CreateProjectBody,
  DeleteProjectQuery,
  ListProjectsQuery,
  Project,
  ProjectParams,
  ProjectsParams,
  UpdateProjectBody,
} from './projects.schemas.ts';
import { createProject, deleteProject, getProject, listProjects, updateProject } from './projects.service.ts';

const collection = '/api/v1/workspaces/:workspace_id/projects';
const tags = ['Projects'];
const visibility =
  'Only members of the owning team, or holders of access_all_projects, see a project and its emails (404 otherwise).';

export const projectsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listProjects',
        tags,
        summary: 'List projects',
        description: `Sorted by name; filter by team_id and search the name. ${visibility}`,
        params: ProjectsParams,
        querystring: ListProjectsQuery,
        response: { 200: ListResponse(ref(Project)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listProjects(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.query,
        pageRequest(request.query),
      ),
  );

  app.post(
    collection,
    {
      config: { permission: 'create_projects' },
      schema: {
        operationId: 'createProject',
        tags,
        summary: 'Create a project',
        description:
          'The team must be one of this workspace, and one you belong to unless you hold access_all_projects.',
        params: ProjectsParams,
        body: CreateProjectBody,
        response: { 200: ref(Project), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      createProject(app.services, principalOf(request), workspaceOf(request).id, request.body),
  );

  app.get(
    `${collection}/:id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getProject',
        tags,
        summary: 'Get a project',
        description: visibility,
        params: ProjectParams,
        response: { 200: ref(Project), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      getProject(app.services, principalOf(request), workspaceOf(request).id, request.params.id),
  );

  app.patch(
    `${collection}/:id`,
    {
      config: { permission: 'update_projects' },
      schema: {
        operationId: 'updateProject',
        tags,
        summary: 'Change a project',
        params: ProjectParams,
        body: UpdateProjectBody,
        response: { 200: ref(Project), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateProject(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.body,
      ),
  );

  app.delete(
    `${collection}/:id`,
    {
      config: { permission: 'delete_projects' },
      schema: {
        operationId: 'deleteProject',
        tags,
        summary: 'Delete a project',
        description:
          'A project that still has emails is kept (422 naming them) unless delete_emails=true confirms ' +
          'that its emails go with it.',
        params: ProjectParams,
        querystring: DeleteProjectQuery,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteProject(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.query.delete_emails ?? false,
      );
      return reply.code(204).send(null);
    },
  );
};
