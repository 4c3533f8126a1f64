import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { findRequestedEmail } from '../emails/email-visibility.ts';
import {
  CreateEmailCommentBody,
  EmailComment,
  EmailCommentParams,
  EmailCommentsParams,
  ListEmailCommentsQuery,
  UpdateEmailCommentBody,
} from './email-comments.schemas.ts';
import {
  createEmailComment,
  deleteEmailComment,
  listEmailComments,
  toggleEmailCommentResolution,
  updateEmailComment,
} from './email-comments.service.ts';

const collection = '/api/v1/workspaces/:workspace_id/emails/:email_id/email_comments';
const tags = ['Email comments'];
const permission = 'email_commenting' as const;

/** Comments on an email's locales: threads one level deep, pins on the preview, mentions. */
export const emailCommentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission },
      schema: {
        operationId: 'listEmailComments',
        tags,
        summary: 'List the comments on one locale of an email',
        description:
          'First comments and replies together, oldest first (by id): group replies under their parent_id. ' +
          'locale is required (any locale code; one the email lacks lists nothing). resolved=true or false ' +
          'lists only resolved or open threads.',
        params: EmailCommentsParams,
        querystring: ListEmailCommentsQuery,
        response: { 200: ListResponse(ref(EmailComment)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listEmailComments(
        app.services.database.db,
        await findRequestedEmail(app.services, request),
        request.query,
        pageRequest(request.query),
      ),
  );

  app.post(
    collection,
    {
      config: { permission },
      schema: {
        operationId: 'createEmailComment',
        tags,
        summary: 'Comment on an email, or reply to a thread',
        description:
          'locale must be one of the email’s locales. parent_id replies to a thread’s first comment (threads are ' +
          'one level deep; replies carry no pin). pin_data pins a first comment on a component instance of the ' +
          'email (or on the email, with component_instance_id null). Mention people who can see the email as ' +
          '`@[First Last](user:ID)` in the body: each is notified (mentioned_in_comment); a reply also notifies ' +
          'the people who wrote in the thread before (reply_in_comment_thread). Open in every email status.',
        params: EmailCommentsParams,
        body: CreateEmailCommentBody,
        response: { 200: ref(EmailComment), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      createEmailComment(
        app.services,
        principalOf(request),
        await findRequestedEmail(app.services, request),
        request.body,
      ),
  );

  app.patch(
    `${collection}/:id`,
    {
      config: { permission },
      schema: {
        operationId: 'updateEmailComment',
        tags,
        summary: 'Edit your comment',
        description: 'Only its author may. People the new body mentions for the first time are notified.',
        params: EmailCommentParams,
        body: UpdateEmailCommentBody,
        response: { 200: ref(EmailComment), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateEmailComment(
        app.services,
        principalOf(request),
        await findRequestedEmail(app.services, request),
        request.params.id,
        request.body,
      ),
  );

  app.delete(
    `${collection}/:id`,
    {
      config: { permission },
      schema: {
        operationId: 'deleteEmailComment',
        tags,
        summary: 'Delete your comment',
        description: 'Only its author may. Deleting the first comment of a thread deletes its replies.',
        params: EmailCommentParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteEmailComment(
        app.services.database.db,
        principalOf(request),
        await findRequestedEmail(app.services, request),
        request.params.id,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${collection}/:id/toggle_resolution`,
    {
      config: { permission },
      schema: {
        operationId: 'toggleEmailCommentResolution',
        tags,
        summary: 'Resolve a thread, or reopen it',
        description:
          'On a thread’s first comment (422 on a reply): the whole thread turns resolved, with you as its ' +
          'resolver, or open again.',
        params: EmailCommentParams,
        response: { 200: ref(EmailComment), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      toggleEmailCommentResolution(
        app.services.database.db,
        principalOf(request),
        await findRequestedEmail(app.services, request),
        request.params.id,
      ),
  );
};
