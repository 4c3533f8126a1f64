import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { sendJsonBytes } from '../../http/json-bytes.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { coveredByEarlierEntry } from '../audit-logs/audit-logs.service.ts';
import { cloneEmail } from './email-cloning.ts';
import { listEmailHistory } from './email-history.ts';
import { moveEmailStatus } from './email-status.ts';
import { listEmailVersions, nameEmailVersion, restoreEmailVersion } from './email-versions.ts';
import { readEmailJson } from './email-visibility.ts';
import { renderEmail, sendTestEmail, validateSavedEmail } from './emails.rendering.ts';
import {
  CloneEmailBody,
  ContentValidationResult,
  CreateEmailBody,
  Email,
  EmailConflict,
  EmailHistoryEntry,
  EmailLocaleParams,
  EmailParams,
  EmailSummary,
  EmailsParams,
  EmailVersion,
  EmailVersionParams,
  ListEmailsQuery,
  NameEmailVersionBody,
  RenderEmailBody,
  RenderedEmail,
  TestSendBody,
  TestSendResult,
  UpdateEmailBody,
} from './emails.schemas.ts';
import { createEmail, deleteEmail, listEmails, updateEmail } from './emails.service.ts';

const collection = '/api/v1/workspaces/:workspace_id/emails';
const item = `${collection}/:id`;
const tags = ['Emails'];

export const emailsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listEmails',
        tags,
        summary: 'List emails',
        description:
          'Most recently changed first, without their content; filter by project_id and status, search the ' +
          'name. Only emails of projects you can see are listed.',
        params: EmailsParams,
        querystring: ListEmailsQuery,
        response: { 200: ListResponse(ref(EmailSummary)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listEmails(
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
      config: { permission: 'create_emails' },
      schema: {
        operationId: 'createEmail',
        tags,
        summary: 'Create an email',
        description:
          'The design system must be usable here and not archived. With a layout (of the same system) the ' +
          'email starts as a copy of its content; otherwise as the container alone, its fields at their ' +
          'defaults. A brand profile must belong to the system, and is required when the system says so. ' +
          'locales defaults to [default_locale], default_locale to the first locale, both to en-US.',
        params: EmailsParams,
        body: CreateEmailBody,
        response: { 200: ref(Email), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => createEmail(app.services, principalOf(request), workspaceOf(request).id, request.body),
  );

  app.get(
    item,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getEmail',
        tags,
        summary: 'Get an email',
        params: EmailParams,
        response: { 200: ref(Email), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) =>
      sendJsonBytes(
        reply,
        await readEmailJson(app.services, principalOf(request), workspaceOf(request).id, request.params.id),
      ),
  );

  app.patch(
    item,
    {
      config: { permission: 'update_emails' },
      schema: {
        operationId: 'updateEmail',
        tags,
        summary: 'Change an email',
        description:
          'Send lock_version as loaded: if someone saved since, the answer is 409 with the current email and ' +
          'nothing is written. Beyond update_emails, adding, removing or reordering instances needs ' +
          'add_remove_reorder_email_components, attaching or detaching a conditional needs ' +
          'add_remove_conditional_from_components, and changing the locales needs ' +
          'add_remove_locales_from_emails (403 naming the key). Removing a locale drops its values ' +
          '(earlier versions keep them). Published emails are read-only (422). Every content change is ' +
          'recorded as a version: saves by one person with nothing else written in between, each within 30 ' +
          'minutes of the last, form an editing session whose one version each save replaces.',
        params: EmailParams,
        body: UpdateEmailBody,
        response: { 200: ref(Email), 409: ref(EmailConflict), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const saved = await updateEmail(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.body,
      );
      if (saved.savedInOpenSession) coveredByEarlierEntry(request);
      return saved.email;
    },
  );

  app.delete(
    item,
    {
      config: { permission: 'delete_emails' },
      schema: {
        operationId: 'deleteEmail',
        tags,
        summary: 'Delete an email',
        params: EmailParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteEmail(app.services, principalOf(request), workspaceOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${item}/versions`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listEmailVersions',
        tags,
        summary: 'List the versions of an email',
        description: 'Newest first: one per content or locale change, including the first.',
        params: EmailParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(EmailVersion)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listEmailVersions(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        pageRequest(request.query),
      ),
  );

  app.get(
    `${item}/history`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listEmailHistory',
        tags,
        summary: 'The history of an email, as editing sessions',
        description:
          'Newest first. The versions grouped when read (they stay as saved): consecutive saves by one person ' +
          'with no gap over 30 minutes and nobody else’s save in between form one editing session; the first ' +
          'version, a version an AI feature wrote and a restore are entries of their own; a named version ends its session. Each ' +
          'entry says what changed in words, from the version before it to its last version.',
        params: EmailParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(EmailHistoryEntry)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listEmailHistory(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        pageRequest(request.query),
      ),
  );

  app.patch(
    `${item}/versions/:version_id`,
    {
      config: { permission: 'update_emails' },
      schema: {
        operationId: 'nameEmailVersion',
        tags,
        summary: 'Name a version',
        description:
          'Gives a version a name people recognise (“Sent to legal”), trimmed, 1 to 100 characters; null ' +
          'clears it. Only the name changes, also on a published email. In the history a named version ends ' +
          'its editing session.',
        params: EmailVersionParams,
        body: NameEmailVersionBody,
        response: { 200: ref(EmailVersion), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      nameEmailVersion(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.params.version_id,
        request.body.name,
        { path: request.url.split('?')[0] ?? request.url, id: request.id },
      ),
  );

  app.post(
    `${item}/versions/:version_id/restore`,
    {
      config: { permission: 'update_emails' },
      schema: {
        operationId: 'restoreEmailVersion',
        tags,
        summary: 'Restore a version',
        description:
          'The version’s content and locales become current, recorded as a new version; the same checks ' +
          'and permission keys as a PATCH apply.',
        params: EmailVersionParams,
        response: { 200: ref(Email), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      restoreEmailVersion(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.params.version_id,
      ),
  );

  app.get(
    `${item}/validate_email_content`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'validateEmailContent',
        tags,
        summary: 'Check an email against its field validations',
        description:
          'Every branch, in every locale the instance is shown in; a value never entered is checked as its ' +
          'default, and fields hidden by visible_if are skipped.',
        params: EmailParams,
        response: { 200: ref(ContentValidationResult), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      validateSavedEmail(app.services, principalOf(request), workspaceOf(request).id, request.params.id),
  );

  app.post(
    `${item}/convert_to_draft`,
    {
      config: { permission: 'convert_emails_to_draft' },
      schema: {
        operationId: 'convertEmailToDraft',
        tags,
        summary: 'Convert an email back to draft',
        params: EmailParams,
        response: { 200: ref(Email), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      moveEmailStatus(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        'convert_to_draft',
      ),
  );

  app.post(
    `${item}/clone`,
    {
      config: { permission: 'create_emails' },
      schema: {
        operationId: 'cloneEmail',
        tags,
        summary: 'Clone an email',
        description: 'A draft copy in the same project, with the same content, locales and profiles.',
        params: EmailParams,
        body: CloneEmailBody,
        response: { 200: ref(Email), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      cloneEmail(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.body,
      ),
  );

  app.post(
    `${item}/locales/:locale/render`,
    {
      config: { permission: 'signed_in', writesNothing: true },
      schema: {
        operationId: 'renderEmail',
        tags,
        summary: 'Render a saved email in one locale',
        description:
          'Conditional content shows the branch named in branch_selection, else the conditional’s default branch (default_branch_key, else its last branch). Template ' +
          'problems answer 422 with the instance they are in.',
        params: EmailLocaleParams,
        body: RenderEmailBody,
        response: { 200: ref(RenderedEmail), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      renderEmail(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.params.locale,
        request.body?.branch_selection,
      ),
  );

  app.post(
    `${item}/test_sends`,
    {
      config: { permission: 'send_test_emails' },
      schema: {
        operationId: 'sendTestEmail',
        tags,
        summary: 'Send a test of an email',
        description:
          'Renders the saved email in the locale (default: the email’s default locale) and mails it to up to ' +
          '10 recipients, the subject prefixed with [Test]: over SMTP when the server has SMTP_URL, otherwise ' +
          'into its outbox folder.',
        params: EmailParams,
        body: TestSendBody,
        response: { 200: ref(TestSendResult), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      sendTestEmail(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.body,
      ),
  );
};
