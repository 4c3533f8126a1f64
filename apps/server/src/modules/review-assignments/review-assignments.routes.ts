import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  CreateReviewAssignmentBody,
  EmailReviewAssignmentsParams,
  ReviewAssignment,
  ReviewAssignmentParams,
} from './review-assignments.schemas.ts';
import {
  createReviewAssignment,
  deleteReviewAssignment,
  listReviewAssignments,
  runAiReviewAgain,
} from './review-assignments.service.ts';

export const reviewAssignmentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const collection = '/api/v1/workspaces/:workspace_id/emails/:email_id/review_assignments';

  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listReviewAssignments',
        tags: ['Review assignments'],
        summary: 'List who is asked to review an email',
        params: EmailReviewAssignmentsParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(ReviewAssignment)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listReviewAssignments(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_id,
        pageRequest(request.query),
      ),
  );

  app.post(
    collection,
    {
      config: { permission: 'submit_for_approval' },
      schema: {
        operationId: 'createReviewAssignment',
        tags: ['Review assignments'],
        summary: 'Ask a person, a role or an AI reviewer to review an email',
        description:
          'Outside any approval workflow. A User must be able to see the email (a member of its workspace, on the team of its project); a Role must be of the organization, an AiReviewer of the workspace (422 otherwise, and 422 when that assignee is already asked). The user asked, or every holder of the role who can see the email, gets a requested_review notification; an AiReviewer starts reviewing at once: the answer shows `ai_review_status: running`, and a background job reads each locale of the email and posts the reviewer’s comments, pinned to the sections they concern, then ends `done` (or `failed`, with `ai_review_error`). Without an AI provider (Settings › AI) the request is still made, with `ai_review_status: failed` and the reason; run it again once a provider is set up.',
        params: EmailReviewAssignmentsParams,
        body: CreateReviewAssignmentBody,
        response: { 200: ref(ReviewAssignment), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      createReviewAssignment(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_id,
        request.body,
      ),
  );

  app.post(
    `${collection}/:review_assignment_id/run_ai_review`,
    {
      config: { permission: 'submit_for_approval' },
      schema: {
        operationId: 'runAiReview',
        tags: ['Review assignments'],
        summary: 'Run an AI reviewer’s review of the email again',
        description:
          'For an AiReviewer assignment: starts a new review of every locale (`ai_review_status: running`, then `done` or `failed`), after a failure or for a fresh look at a changed email. Its earlier comments stay; the reviewer is shown those still open so that it does not repeat them. 422 for a User or Role assignment and while a review runs; without an AI provider the answer shows `failed` with the reason.',
        params: ReviewAssignmentParams,
        response: { 200: ref(ReviewAssignment), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      runAiReviewAgain(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_id,
        request.params.review_assignment_id,
      ),
  );

  app.delete(
    `${collection}/:review_assignment_id`,
    {
      config: { permission: 'submit_for_approval' },
      schema: {
        operationId: 'deleteReviewAssignment',
        tags: ['Review assignments'],
        summary: 'Withdraw a review request',
        description:
          'Anyone who may ask for reviews (submit_for_approval) and can see the email may withdraw any of its requests, not only their own.',
        params: ReviewAssignmentParams,
        response: { 204: Type.Null({ description: 'Withdrawn' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteReviewAssignment(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_id,
        request.params.review_assignment_id,
      );
      return reply.code(204).send(null);
    },
  );
};
