import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { publishEmail } from '../emails/email-status.ts';
import { findRequestedEmail } from '../emails/email-visibility.ts';
import { EmailParams, PublishBody, PublishedEmail } from '../emails/emails.schemas.ts';
import { preSendCheckerOf } from '../exports/exports.service.ts';
import {
  ApprovalWorkflow,
  EmailReviewParams,
  ReviewApproval,
  ReviewApprovalBody,
  SubmitForApprovalBody,
} from './approval-workflows.schemas.ts';
import { decideReview, getLatestWorkflow, submitForApproval } from './approval-workflows.service.ts';

const emailItem = '/api/v1/workspaces/:workspace_id/emails/:email_id';
const tags = ['Approval workflows'];

export const approvalWorkflowsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    `${emailItem}/approval_workflow`,
    {
      config: { permission: 'submit_for_approval' },
      schema: {
        operationId: 'submitEmailForApproval',
        tags,
        summary: 'Submit an email for approval',
        description:
          'From draft or changes_requested; the email moves to in_review and the first stage’s members are ' +
          'notified. Submit to a reusable review_group_id, or to stages chosen for this email alone. Every ' +
          'stage member must be able to see the email (422 naming those who cannot). Submitting again ' +
          'cancels the workflow under way and starts a new one at stage 1. resubmission: true (only after ' +
          'changes were requested) continues the same workflow in a new round, at the stage that asked for ' +
          'changes: approvals of the stages before it keep counting, decisions at or after it start over. ' +
          'The pre-send checks run first over every locale (as an export without a dynamic content profile ' +
          'would): a blocking problem answers 422 with code pre_send_checks_failed, the messages under ' +
          'errors.checks.<locale> and the problems under problems; warnings come back in pre_send_warnings. ' +
          '409 when the email was saved while its checks ran.',
        params: EmailReviewParams,
        body: SubmitForApprovalBody,
        response: { 200: ref(ApprovalWorkflow), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const email = await findRequestedEmail(app.services, request);
      return submitForApproval(
        app.services,
        preSendCheckerOf(app.services),
        principalOf(request),
        email,
        request.body,
      );
    },
  );

  app.get(
    `${emailItem}/approval_workflow`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getEmailApprovalWorkflow',
        tags,
        summary: 'Get an email’s approval workflow',
        description:
          'The latest workflow of the email (also a completed or cancelled one); 404 when it was never ' +
          'submitted. Anyone who can see the email can read its review.',
        params: EmailReviewParams,
        response: { 200: ref(ApprovalWorkflow), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      return getLatestWorkflow(app.services.database.db, await findRequestedEmail(app.services, request));
    },
  );

  app.post(
    `${emailItem}/review_approvals`,
    {
      config: { permission: 'email_commenting' },
      schema: {
        operationId: 'createReviewApproval',
        tags,
        summary: 'Approve or request changes',
        description:
          'A decision at the current stage of the email’s review. The route needs email_commenting (every ' +
          'built-in role has it), but what decides is being a member of the current stage: anyone else ' +
          'gets 403 naming whom the stage waits on. 422 when the email is not in review, or when you already ' +
          'approved this stage in this round. one_of stages complete with one approval, all_of with every ' +
          'member’s; the last stage’s completion approves the email (recording its lock_version, the only ' +
          'content that may then be published). request_changes moves the email to changes_requested. ' +
          'An approval runs the pre-send checks first: a blocking problem refuses it (422, code ' +
          'pre_send_checks_failed, listing the problems as a submission does); the warnings are recorded ' +
          'with the approval (pre_send_warnings). request_changes is never refused by the checks.',
        params: EmailReviewParams,
        body: ReviewApprovalBody,
        response: { 200: ref(ReviewApproval), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const email = await findRequestedEmail(app.services, request);
      return decideReview(
        app.services,
        preSendCheckerOf(app.services),
        principalOf(request),
        email,
        request.body,
      );
    },
  );

  // Publishing is the end of the review: it needs the pre-send checks of exports, a layer above emails.
  app.post(
    '/api/v1/workspaces/:workspace_id/emails/:id/publish',
    {
      config: { permission: 'publish_emails' },
      schema: {
        operationId: 'publishEmail',
        tags: ['Emails'],
        summary: 'Publish an email',
        description:
          'From approved, the approved content. The pre-send checks run first over every locale (as an export ' +
          'without a dynamic content profile would): a blocking problem answers 422 with code ' +
          'pre_send_checks_failed, the messages under errors.checks.<locale> and the problems under problems; ' +
          'warnings come back in pre_send_warnings. With force: true, from any status, which also needs ' +
          'force_publish_emails (403 without it); blocking problems are then overridden when ' +
          'acknowledged_problems names their codes (409 with code pre_send_checks_changed and the current ' +
          'problems when they are not the ones found now), and the override is recorded in the audit log ' +
          '(resource_type emails.force_published). A published email is read-only until converted to draft.',
        params: EmailParams,
        body: PublishBody,
        response: { 200: ref(PublishedEmail), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      publishEmail(app.services, principalOf(request), workspaceOf(request).id, request.params.id, {
        force: request.body?.force === true,
        acknowledgedProblems: request.body?.acknowledged_problems,
        preSendChecks: preSendCheckerOf(app.services),
        request: { path: request.url.split('?')[0] ?? request.url, id: request.id, log: request.log },
      }),
  );
};
