import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  Component,
  ComponentParams,
  ComponentVersion,
  CreateComponentBody,
  ListComponentsQuery,
  ReorderComponentsBody,
  SystemParams,
  UpdateComponentBody,
} from './components.schemas.ts';
import {
  createComponent,
  deleteComponent,
  getComponent,
  listComponents,
  listComponentVersions,
  reorderComponents,
  updateComponent,
} from './components.service.ts';

const system = '/api/v1/workspaces/:workspace_id/email_design_systems/:email_design_system_id';
const collection = `${system}/components`;
const ComponentList = Type.Object({ results: Type.Array(ref(Component)) });

export const componentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listComponents',
        tags: ['Email design systems'],
        summary: 'List a design system’s components, container first, then in palette order',
        description:
          'Paginated like every list (per, at most 100, and page; pagination.total counts them all): page on ' +
          'to see every component. With brand_profile_id: that brand’s hidden components are left out (and ' +
          'not counted) and its field overrides applied.',
        params: SystemParams,
        querystring: ListComponentsQuery,
        response: { 200: ListResponse(ref(Component)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listComponents(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.query.brand_profile_id,
        pageRequest(request.query),
      ),
  );

  app.post(
    collection,
    {
      config: { permission: 'update_email_design_systems' },
      schema: {
        operationId: 'createComponent',
        tags: ['Email design systems'],
        summary: 'Add a component',
        description:
          'Refused (422, naming the field) when the template does not parse (with line and column), a ' +
          'liquid_variable is not an identifier or is repeated, a default value has the wrong type or is not one ' +
          'of the options, a visible_if does not parse, the name is taken, or a second container is added. ' +
          'A container’s template must contain {{children}}.',
        params: SystemParams,
        body: CreateComponentBody,
        response: { 200: ref(Component), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      createComponent(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.body,
      ),
  );

  app.get(
    `${collection}/:id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getComponent',
        tags: ['Email design systems'],
        summary: 'Get a component',
        params: ComponentParams,
        response: { 200: ref(Component), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      getComponent(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.params.id,
      ),
  );

  app.patch(
    `${collection}/:id`,
    {
      config: { permission: 'update_email_design_systems' },
      schema: {
        operationId: 'updateComponent',
        tags: ['Email design systems'],
        summary: 'Change a component (records a version)',
        params: ComponentParams,
        body: UpdateComponentBody,
        response: { 200: ref(Component), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateComponent(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.params.id,
        request.body,
      ),
  );

  app.delete(
    `${collection}/:id`,
    {
      config: { permission: 'update_email_design_systems' },
      schema: {
        operationId: 'deleteComponent',
        tags: ['Email design systems'],
        summary: 'Delete a component (never the container)',
        params: ComponentParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteComponent(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.params.id,
      );
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${collection}/:id/versions`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listComponentVersions',
        tags: ['Email design systems'],
        summary: 'A component’s saved versions, newest first',
        params: ComponentParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(ComponentVersion)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listComponentVersions(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.params.id,
        pageRequest(request.query),
      ),
  );

  app.post(
    `${system}/reorder_components`,
    {
      config: { permission: 'update_email_design_systems' },
      schema: {
        operationId: 'reorderComponents',
        tags: ['Email design systems'],
        summary: 'Set the palette order of the components',
        params: SystemParams,
        body: ReorderComponentsBody,
        response: { 200: ComponentList, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      reorderComponents(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.body.component_ids,
      ),
  );
};
