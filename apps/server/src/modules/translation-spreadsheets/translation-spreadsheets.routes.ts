import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  DownloadTranslationsQuery,
  ImportTranslationsBody,
  ImportTranslationsQuery,
  TranslationImportResult,
  TranslationSpreadsheetParams,
} from './translation-spreadsheets.schemas.ts';
import { downloadTranslations, importTranslations } from './translation-spreadsheets.service.ts';

const path = '/api/v1/workspaces/:workspace_id/emails/:email_id/translation_spreadsheets';
const tags = ['Emails'];
const keyFormat =
  'Each value has a stable key: `subject.<branch>`, `preheader.<branch>`, or ' +
  '`<instance id>.<liquid_variable>.<branch>` (branch `null_branch` without a conditional). Translatable values are the subject, the preheader and every ' +
  'text and rich-text field, in every branch.';

export const translationSpreadsheetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    path,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'downloadTranslationSpreadsheet',
        tags,
        summary: 'Download the email’s texts to translate (CSV or XLIFF)',
        description:
          `CSV (the default): UTF-8 with a byte order mark, CRLF line ends, RFC 4180 quoting; columns key, component, ` +
          'field, the default locale (the text a reader sees: the stored text, else the field’s default), then one ' +
          'column per other locale of the email (empty where it has no text). With format=xliff and locale: XLIFF 2.0 ' +
          `for that locale (422 without a locale, or with the default locale or one the email lacks). ${keyFormat} ` +
          'Anyone who can see the email may download it.',
        params: TranslationSpreadsheetParams,
        querystring: DownloadTranslationsQuery,
        response: {
          200: {
            description: 'The file, as an attachment named after the email',
            content: {
              'text/csv': { schema: Type.String({ description: 'The spreadsheet' }) },
              'application/xliff+xml': { schema: Type.String({ description: 'XLIFF 2.0 for one locale' }) },
            },
          },
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const file = await downloadTranslations(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_id,
        request.query,
      );
      return reply
        .header('content-type', file.contentType)
        .header(
          'content-disposition',
          `attachment; filename="${file.fileName.ascii}"; filename*=UTF-8''${file.fileName.encoded}`,
        )
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );

  app.post(
    path,
    {
      config: { permission: 'update_emails' },
      schema: {
        operationId: 'importTranslationSpreadsheet',
        tags,
        summary: 'Import translations from a CSV or XLIFF file',
        description:
          'multipart/form-data with csv_file (format=csv, the default) or xliff_file (format=xliff). Writes the texts ' +
          'of the locale columns (XLIFF: of its trgLang), which must be locales the email already has; the default ' +
          'locale’s column, component and field are read-only, and an empty cell (a unit without a target) leaves ' +
          'the value as it is. All or nothing: unknown keys, locales the email lacks, a key twice, malformed CSV or ' +
          'XML, a file that is not UTF-8, a missing key column, or a text its field’s validations refuse answer 422 ' +
          'naming each place (`row 3, column fr-FR`; `unit <key> (line 12)`) and nothing is written. Otherwise ' +
          'the changes become ONE new version (lock_version + 1), written under the email’s row lock onto its ' +
          'current content; when nothing changed, no version is made. Emails in review, approved or published ' +
          `refuse (422). ${keyFormat}`,
        consumes: ['multipart/form-data'],
        params: TranslationSpreadsheetParams,
        querystring: ImportTranslationsQuery,
        body: ImportTranslationsBody,
        response: { 200: ref(TranslationImportResult), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      importTranslations(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_id,
        request.query.format ?? 'csv',
        // At most one file per request: the service tells a file under the wrong field apart from none.
        request.uploadedFiles[0],
      ),
  );
};
