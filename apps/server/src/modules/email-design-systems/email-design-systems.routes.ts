import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  CloneEmailDesignSystemBody,
  CreateEmailDesignSystemBody,
  DesignSystemJson,
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
import {
  cloneDesignSystem,
  exportDesignSystem,
  importDesignSystem,
  syncDesignSystem,
} from './email-design-systems.transfer.ts';

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
    async (request) =>
      createDesignSystem(app.services, principalOf(request), workspaceOf(request).id, request.body),
  );

  app.post(
    `${collection}/import`,
    {
      config: { permission: 'create_email_design_systems' },
      schema: {
        operationId: 'importEmailDesignSystem',
        tags: ['Email design systems'],
        summary: 'Create a design system from its JSON',
        description:
          'The JSON that export answers: name, description, tokens, custom styles, the container component ' +
          'and the components. Every template and field definition is checked first; problems answer 422 with ' +
          'their path in the document, and nothing is created.',
        params: WorkspaceParams,
        body: ref(DesignSystemJson),
        response: { 200: ref(EmailDesignSystem), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      importDesignSystem(app.services, principalOf(request), workspaceOf(request).id, request.body),
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
    async (request) =>
      getDesignSystem(app.services, principalOf(request), workspaceOf(request).id, request.params.id),
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
      updateDesignSystem(
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
      await deleteDesignSystem(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${collection}/:id/export`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'exportEmailDesignSystem',
        tags: ['Email design systems'],
        summary: 'Download a design system as JSON',
        description: 'The same JSON import and sync take, as an attachment.',
        params: EmailDesignSystemParams,
        response: { 200: ref(DesignSystemJson), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const document = await exportDesignSystem(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
      );
      const filename =
        document.email_design_system.name.replaceAll(/[^\w.-]+/g, '-').toLowerCase() || 'design-system';
      return reply.header('content-disposition', `attachment; filename="${filename}.json"`).send(document);
    },
  );

  app.post(
    `${collection}/:id/sync`,
    {
      config: { permission: 'update_email_design_systems' },
      schema: {
        operationId: 'syncEmailDesignSystem',
        tags: ['Email design systems'],
        summary: 'Replace a design system with a JSON document',
        description:
          'Name, description, tokens, custom styles, container and components become the document’s. ' +
          'Components are matched by name and keep their ids; those missing from the document are deprecated ' +
          '(existing emails still render them), never deleted.',
        params: EmailDesignSystemParams,
        body: ref(DesignSystemJson),
        response: { 200: ref(EmailDesignSystem), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      syncDesignSystem(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.body,
      ),
  );

  app.post(
    `${collection}/:id/clone`,
    {
      config: { permission: 'create_email_design_systems' },
      schema: {
        operationId: 'cloneEmailDesignSystem',
        tags: ['Email design systems'],
        summary: 'Copy a design system into this workspace',
        description:
          'The copy (named “… (copy)” unless a name is given) is this workspace’s only, until shared.',
        params: EmailDesignSystemParams,
        body: CloneEmailDesignSystemBody,
        response: { 200: ref(EmailDesignSystem), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      cloneDesignSystem(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.body.name,
      ),
  );
};
