import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  ChecksQuery,
  CreateExportBody,
  EmailChecksParams,
  Export,
  ExportData,
  ExportParams,
  ExportsParams,
  ListExportsQuery,
  PreSendCheckResult,
} from './exports.schemas.ts';
import {
  checkEmailBeforeSending,
  createExport,
  getExport,
  getExportData,
  listExports,
  sendExportFile,
} from './exports.service.ts';

const collection = '/api/v1/workspaces/:workspace_id/exports';
const item = `${collection}/:id`;
const tags = ['Exports'];

export const exportsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    collection,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listExports',
        tags,
        summary: 'List exports',
        description: 'The workspace’s exports, newest first; filter by email_id and status.',
        params: ExportsParams,
        querystring: ListExportsQuery,
        response: { 200: ListResponse(ref(Export)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listExports(app.services, workspaceOf(request).id, request.query, pageRequest(request.query)),
  );

  app.post(
    collection,
    {
      config: { permission: 'create_exports' },
      schema: {
        operationId: 'createExport',
        tags,
        summary: 'Export an email',
        description:
          'Runs the pre-send checks over the chosen locales first: a blocking problem answers 422 listing ' +
          'them (under checks.<locale>). Otherwise the export starts in_progress, with the warnings, and runs in ' +
          'the background: poll GET .../exports/{id} for progress, then download it. Emails of any status can be ' +
          'exported to a file; the export records the status. Connector exports need a published email (422 otherwise).',
        params: ExportsParams,
        body: CreateExportBody,
        response: { 200: ref(Export), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      createExport(app.services, principalOf(request), workspaceOf(request).id, request.body),
  );

  app.get(
    item,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getExport',
        tags,
        summary: 'Get an export',
        description: 'With its status, progress (locales done of all), errors per locale and download URLs.',
        params: ExportParams,
        response: { 200: ref(Export), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getExport(app.services, workspaceOf(request).id, request.params.id),
  );

  app.get(
    `${item}/export_data`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getExportData',
        tags,
        summary: 'Get the outputs of a json export',
        description:
          'The email’s name and id and, per locale, its name, subject, preheader, HTML and plain text. 422 until it has completed, and for other export types.',
        params: ExportParams,
        response: { 200: ref(ExportData), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getExportData(app.services, workspaceOf(request).id, request.params.id),
  );

  app.get(
    `${item}/download`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'downloadExport',
        tags,
        summary: 'Download an export’s file',
        description:
          'The zip (html), JSON document (json) or PDF (pdf) of a completed export, as an attachment. It needs ' +
          'the same sign-in or API key as the rest of the API; 422 until the export has completed.',
        params: ExportParams,
        response: {
          200: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The file' }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => sendExportFile(app.services, workspaceOf(request).id, request.params.id, reply),
  );

  app.get(
    '/api/v1/workspaces/:workspace_id/emails/:id/checks',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'checkEmail',
        tags,
        summary: 'Run the pre-send checks on an email',
        description:
          'What an export would check, in one locale or (without locale) every locale of the email, rendered ' +
          'as exported (with dynamic_content_profile_id, in that profile’s syntax).',
        params: EmailChecksParams,
        querystring: ChecksQuery,
        response: { 200: ref(PreSendCheckResult), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      checkEmailBeforeSending(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.query,
      ),
  );
};
