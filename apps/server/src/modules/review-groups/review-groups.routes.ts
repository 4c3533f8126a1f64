import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  CreateReviewGroupBody,
  ListReviewGroupsQuery,
  ReviewGroup,
  ReviewGroupParams,
  UpdateReviewGroupBody,
} from './review-groups.schemas.ts';
import {
  createReviewGroup,
  deleteReviewGroup,
  getReviewGroup,
  listReviewGroups,
  updateReviewGroup,
} from './review-groups.service.ts';

export const reviewGroupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = () => app.services.database.db;

  app.get(
    '/api/v1/review_groups',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listReviewGroups',
        tags: ['Review groups'],
        summary: 'List review groups',
        description:
          'Reusable groups by default: the groups made for one email’s submission alone are read through that email’s approval workflow (or listed with reusable=false or all).',
        querystring: ListReviewGroupsQuery,
        response: { 200: ListResponse(ref(ReviewGroup)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) =>
      listReviewGroups(db(), principalOf(request), request.query, pageRequest(request.query)),
  );

  app.post(
    '/api/v1/review_groups',
    {
      config: { permission: 'manage_review_groups' },
      schema: {
        operationId: 'createReviewGroup',
        tags: ['Review groups'],
        summary: 'Create a review group',
        description:
          'Stages are reviewed in the order of their positions (stored renumbered 1, 2, 3…). 422 for a stage without members, two stages at one position, a user twice in a stage, a user who is not a live user of the organization, or the name of another reusable group.',
        body: CreateReviewGroupBody,
        response: { 200: ref(ReviewGroup), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => createReviewGroup(db(), principalOf(request), request.body),
  );

  app.get(
    '/api/v1/review_groups/:id',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getReviewGroup',
        tags: ['Review groups'],
        summary: 'Get a review group',
        params: ReviewGroupParams,
        response: { 200: ref(ReviewGroup), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getReviewGroup(db(), principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/review_groups/:id',
    {
      config: { permission: 'manage_review_groups' },
      schema: {
        operationId: 'updateReviewGroup',
        tags: ['Review groups'],
        summary: 'Rename a review group or change its stages',
        description:
          'Stages, when given, replace the group’s: a stage or member sent with its id is kept, one left out is removed, one without an id is added. An id of another group’s stage, or of another stage’s member, is a 422. Workflows under way keep the stages they were submitted with.',
        params: ReviewGroupParams,
        body: UpdateReviewGroupBody,
        response: { 200: ref(ReviewGroup), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => updateReviewGroup(db(), principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/review_groups/:id',
    {
      config: { permission: 'manage_review_groups' },
      schema: {
        operationId: 'deleteReviewGroup',
        tags: ['Review groups'],
        summary: 'Delete a review group',
        description:
          'Allowed while workflows under way were submitted to it: they keep their stages (their review_group_id becomes null).',
        params: ReviewGroupParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteReviewGroup(db(), principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
