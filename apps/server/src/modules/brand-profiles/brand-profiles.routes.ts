import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  BrandProfile,
  BrandProfileParams,
  BrandProfilesParams,
  CreateBrandProfileBody,
  UpdateBrandProfileBody,
} from './brand-profiles.schemas.ts';
import {
  createBrandProfile,
  deleteBrandProfile,
  getBrandProfile,
  listBrandProfiles,
  updateBrandProfile,
} from './brand-profiles.service.ts';

const collection =
  '/api/v1/workspaces/:workspace_id/email_design_systems/:email_design_system_id/brand_profiles';
const tags = ['Brand profiles'];

export const brandProfilesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listBrandProfiles',
        tags,
        summary: 'List a design system’s brand profiles',
        params: BrandProfilesParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(BrandProfile)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listBrandProfiles(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        pageRequest(request.query),
      ),
  );

  app.post(
    collection,
    {
      config: { permission: 'create_brand_profiles' },
      schema: {
        operationId: 'createBrandProfile',
        tags,
        summary: 'Create a brand profile',
        description:
          'Overrides may only name the system’s components and their fields, with defaults of the field’s type ' +
          '(422 otherwise). Only from the workspace that owns the design system.',
        params: BrandProfilesParams,
        body: CreateBrandProfileBody,
        response: { 200: ref(BrandProfile), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      createBrandProfile(
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
        operationId: 'getBrandProfile',
        tags,
        summary: 'Get a brand profile',
        params: BrandProfileParams,
        response: { 200: ref(BrandProfile), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      getBrandProfile(
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
      config: { permission: 'update_brand_profiles' },
      schema: {
        operationId: 'updateBrandProfile',
        tags,
        summary: 'Change a brand profile',
        params: BrandProfileParams,
        body: UpdateBrandProfileBody,
        response: { 200: ref(BrandProfile), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateBrandProfile(
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
      config: { permission: 'delete_brand_profiles' },
      schema: {
        operationId: 'deleteBrandProfile',
        tags,
        summary: 'Delete a brand profile',
        params: BrandProfileParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteBrandProfile(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.params.id,
      );
      return reply.code(204).send(null);
    },
  );
};
