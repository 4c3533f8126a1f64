import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  CreateEmailDesignSystemBody,
  EmailDesignSystem,
  EmailDesignSystemParams,
  ListEmailDesignSystemsQuery,
  UpdateEmailDesignSystemBody,
  WorkspaceParams,
} from './email-design-systems.schemas.ts';
import {
  createDesignSystem,
  deleteDesignSystem,
  getDesignSystem,
  listDesignSystems,
  updateDesignSystem,
} from './email-design-systems.service.ts';

const collection = '/api/v1/workspaces/:workspace_id/email_design_systems';

export const emailDesignSystemsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listEmailDesignSystems',
        tags: ['Email design systems'],
        summary: 'List the design systems this workspace can use',
        description:
          'Its own, and those shared (access_scope all_workspaces) by the organization’s other workspaces unless ' +
          'include_shared=false. Archived ones only with archived=true or all.',
        params: WorkspaceParams,
        querystring: ListEmailDesignSystemsQuery,
        response: { 200: ListResponse(ref(EmailDesignSystem)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listDesignSystems(
        app,
        principalOf(request),
        workspaceOf(request).id,
        request.query,
        pageRequest(request.query),
      ),
  );

  app.post(
    collection,
    {
      config: { permission: 'create_email_design_systems' },
      schema: {
        operationId: 'createEmailDesignSystem',
        tags: ['Email design systems'],
        summary: 'Create a design system',
        params: WorkspaceParams,
        body: CreateEmailDesignSystemBody,
        response: { 200: ref(EmailDesignSystem), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => createDesignSystem(app, principalOf(request), workspaceOf(request).id, request.body),
  );

  app.get(
    `${collection}/:id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getEmailDesignSystem',
        tags: ['Email design systems'],
        summary: 'Get a design system',
        params: EmailDesignSystemParams,
        response: { 200: ref(EmailDesignSystem), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getDesignSystem(app, principalOf(request), workspaceOf(request).id, request.params.id),
  );

  app.patch(
    `${collection}/:id`,
    {
      config: { permission: 'update_email_design_systems' },
      schema: {
        operationId: 'updateEmailDesignSystem',
        tags: ['Email design systems'],
        summary: 'Change a design system, or archive it',
        description: 'Only from the workspace that owns it (403 from a workspace it is shared with).',
        params: EmailDesignSystemParams,
        body: UpdateEmailDesignSystemBody,
        response: { 200: ref(EmailDesignSystem), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateDesignSystem(app, principalOf(request), workspaceOf(request).id, request.params.id, request.body),
  );

  app.delete(
    `${collection}/:id`,
    {
      config: { permission: 'delete_email_design_systems' },
      schema: {
        operationId: 'deleteEmailDesignSystem',
        tags: ['Email design systems'],
        summary: 'Delete a design system',
        description: 'Only from the workspace that owns it.',
        params: EmailDesignSystemParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteDesignSystem(app, principalOf(request), workspaceOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
