import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  CreateLayoutBody,
  Layout,
  LayoutConflict,
  LayoutParams,
  LayoutsParams,
  ListLayoutsQuery,
  UpdateLayoutBody,
} from './layouts.schemas.ts';
import { createLayout, deleteLayout, getLayout, listLayouts, updateLayout } from './layouts.service.ts';

const collection = '/api/v1/workspaces/:workspace_id/layouts';
const tags = ['Layouts'];

export const layoutsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listLayouts',
        tags,
        summary: 'List layouts',
        description:
          'Filter by email_design_system_id, and by brand_profile_id (an id, or null for layouts without one).',
        params: LayoutsParams,
        querystring: ListLayoutsQuery,
        response: { 200: ListResponse(ref(Layout)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listLayouts(app.services, workspaceOf(request).id, request.query, pageRequest(request.query)),
  );

  app.post(
    collection,
    {
      config: { permission: 'create_layouts' },
      schema: {
        operationId: 'createLayout',
        tags,
        summary: 'Save a layout',
        description:
          'The brand profile and every instance’s component must belong to the design system; the container ' +
          'instance must use its container (422 otherwise).',
        params: LayoutsParams,
        body: CreateLayoutBody,
        response: { 200: ref(Layout), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      createLayout(app.services, principalOf(request), workspaceOf(request).id, request.body),
  );

  app.get(
    `${collection}/:id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getLayout',
        tags,
        summary: 'Get a layout',
        params: LayoutParams,
        response: { 200: ref(Layout), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getLayout(app.services, workspaceOf(request).id, request.params.id),
  );

  app.patch(
    `${collection}/:id`,
    {
      config: { permission: 'update_layouts' },
      schema: {
        operationId: 'updateLayout',
        tags,
        summary: 'Change a layout',
        params: LayoutParams,
        body: UpdateLayoutBody,
        response: { 200: ref(Layout), 409: ref(LayoutConflict), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => updateLayout(app.services, workspaceOf(request).id, request.params.id, request.body),
  );

  app.delete(
    `${collection}/:id`,
    {
      config: { permission: 'delete_layouts' },
      schema: {
        operationId: 'deleteLayout',
        tags,
        summary: 'Delete a layout',
        params: LayoutParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteLayout(app.services, workspaceOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
