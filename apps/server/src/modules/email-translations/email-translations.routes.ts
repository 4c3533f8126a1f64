import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/access.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { findRequestedEmail } from '../emails/email-visibility.ts';
import {
  CreateEmailTranslationBody,
  EmailTranslation,
  EmailTranslationParams,
  EmailTranslationsParams,
} from './email-translations.schemas.ts';
import {
  getEmailTranslation,
  listEmailTranslations,
  startEmailTranslation,
} from './email-translations.service.ts';

const collection = '/api/v1/workspaces/:workspace_id/emails/:email_id/email_translations';
const tags = ['Email translations'];

/** Machine translation of an email into other locales, one job per locale. */
export const emailTranslationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    collection,
    {
      config: { permission: 'update_emails' },
      schema: {
        operationId: 'createEmailTranslation',
        tags,
        summary: 'Translate an email with AI',
        description:
          'Starts one job per target locale, translating every translatable value of the default locale (text and rich text fields, subject and preheader, in every branch) with the organization’s AI provider. Liquid, personalization tags, sending-platform syntax, HTML markup and links are kept as they are; fields hidden from AI are left alone. Each locale is written as its own content version touching only that locale. Read the translation back for per-locale progress. 422 without a provider, while the email is in review, approved or published, or for the default locale; a locale new to the email needs add_remove_locales_from_emails.',
        params: EmailTranslationsParams,
        body: CreateEmailTranslationBody,
        response: { 200: ref(EmailTranslation), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      startEmailTranslation(
        app.services,
        principalOf(request),
        await findRequestedEmail(app.services, request),
        request.body,
      ),
  );

  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listEmailTranslations',
        tags,
        summary: 'List an email’s translations',
        description: 'Newest first.',
        params: EmailTranslationsParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(EmailTranslation)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listEmailTranslations(
        app.services,
        await findRequestedEmail(app.services, request),
        pageRequest(request.query),
      ),
  );

  app.get(
    `${collection}/:id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getEmailTranslation',
        tags,
        summary: 'Get an email translation with its per-locale status',
        params: EmailTranslationParams,
        response: { 200: ref(EmailTranslation), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      getEmailTranslation(app.services, await findRequestedEmail(app.services, request), request.params.id),
  );
};
