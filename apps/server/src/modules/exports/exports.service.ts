import type { PreSendCheckResult, PreSendProblem, RenderOutput } from '@letterset/core';
import { dynamicContentUsedIn, preSendProblemCodes } from '@letterset/core';
import { and, count, desc, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import { connectors, exports, type StoredExportOptions, users } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { integrationLabels, integrationNames } from '../connectors/connector-platforms.ts';
import { findVisibleEmail } from '../emails/email-visibility.ts';
import type { EmailRow } from '../emails/emails.serializers.ts';
import type { PreSendChecker } from '../emails/pre-send-gate.ts';
import { toUserReference } from '../users/users.serializers.ts';
import { StoredImages } from './export-images.ts';
import { checkForExport, type ExportContext, loadExportContext } from './export-outputs.ts';
import { type ExportRow, failExport } from './export-runner.ts';
import { readStoredFile } from './export-writers.ts';
import type { CreateExportBody, Export, ExportData, ListExportsQuery } from './exports.schemas.ts';

type Creator = Parameters<typeof toUserReference>[0] | null;

const creatorColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
};

const fileExtensions = { html: 'zip', json: 'json', pdf: 'pdf' } as const;

function downloadUrl(
  services: Pick<Services, 'config'>,
  row: ExportRow,
  type: 'html' | 'json' | 'pdf',
): string | null {
  if (row.exportType !== type || row.status !== 'completed' || !row.fileKey) return null;
  return `${services.config.publicApiUrl}/api/v1/workspaces/${row.workspaceId}/exports/${row.id}/download`;
}

/** The sending platform's name as people know it ("Salesforce Marketing Cloud"), for connector exports. */
function platformLabel(integrationName: string | null): string | null {
  if (integrationName === null) return null;
  const known = integrationNames.find((name) => name === integrationName);
  return known ? integrationLabels[known] : integrationName;
}

function toExportResponse(
  services: Pick<Services, 'config'>,
  row: ExportRow,
  creator: Creator,
): Static<typeof Export> {
  return {
    id: row.id,
    organization_id: row.organizationId,
    workspace_id: row.workspaceId,
    connector_id: row.connectorId,
    email_id: row.emailId,
    email: { id: row.emailId, name: row.emailName, status: row.emailStatus },
    dynamic_content_profile_id: row.dynamicContentProfileId,
    status: row.status,
    export_type: row.exportType,
    options: row.options,
    integration_name: row.integrationName,
    platform: platformLabel(row.integrationName),
    delivered_resources: Object.fromEntries(
      Object.entries(row.deliveredResources).map(([locale, resource]) => [
        locale,
        { ...resource, open_url: resource.open_url ?? null },
      ]),
    ),
    metadata: row.metadata,
    export_errors: row.exportErrors,
    warnings: row.warnings as Static<typeof Export>['warnings'],
    progress: { locales_done: row.localesDone, locales_total: row.localesTotal },
    created_by: creator?.id ? toUserReference(creator) : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    completed_at: row.completedAt,
    download_zip_url: downloadUrl(services, row, 'html'),
    download_json_url: downloadUrl(services, row, 'json'),
    download_pdf_url: downloadUrl(services, row, 'pdf'),
    open_in_integration_url: row.openInIntegrationUrl,
  };
}

/**
 * An export whose job is no longer running (its retries used up, or the job is gone) is failed
 * here, when read: nothing stays "in progress" because a worker died at the wrong moment.
 */
async function settleAbandoned(
  services: Pick<Services, 'database' | 'jobs'>,
  row: ExportRow,
): Promise<ExportRow> {
  if (row.status !== 'in_progress' || row.jobId === null) return row;
  const job = await services.jobs.state('export', row.jobId);
  if (job && job.status === 'in_progress') return row;
  if (job?.status === 'completed') {
    // The job finished between the two reads: the row is current now.
    const [current] = await services.database.db.select().from(exports).where(eq(exports.id, row.id));
    return current ?? row;
  }
  const reason = (job?.output as { message?: string } | null)?.message;
  await failExport(services, row.id, {
    base: [`The export job stopped${reason ? `: ${reason}` : ''}; start the export again`],
  });
  const [settled] = await services.database.db.select().from(exports).where(eq(exports.id, row.id));
  return settled ?? row;
}

async function findExport(services: Pick<Services, 'database' | 'jobs'>, workspaceId: number, id: number) {
  const [found] = await services.database.db
    .select({ row: getTableColumns(exports), creator: creatorColumns })
    .from(exports)
    .leftJoin(users, eq(users.id, exports.createdById))
    .where(and(eq(exports.id, id), eq(exports.workspaceId, workspaceId)));
  if (!found) throw new NotFoundError();
  return { row: await settleAbandoned(services, found.row), creator: found.creator };
}

export async function getExport(
  services: Pick<Services, 'database' | 'jobs' | 'config'>,
  workspaceId: number,
  id: number,
) {
  const { row, creator } = await findExport(services, workspaceId, id);
  return toExportResponse(services, row, creator);
}

export async function listExports(
  services: Pick<Services, 'database' | 'jobs' | 'config'>,
  workspaceId: number,
  query: Static<typeof ListExportsQuery>,
  page: PageRequest,
) {
  const conditions: SQL[] = [eq(exports.workspaceId, workspaceId)];
  if (query.email_id !== undefined) conditions.push(eq(exports.emailId, query.email_id));
  if (query.status !== undefined) conditions.push(eq(exports.status, query.status));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select({ row: getTableColumns(exports), creator: creatorColumns })
      .from(exports)
      .leftJoin(users, eq(users.id, exports.createdById))
      .where(where)
      .orderBy(desc(exports.createdAt), desc(exports.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(exports).where(where),
  ]);
  const results = [];
  for (const { row, creator } of rows) {
    results.push(toExportResponse(services, await settleAbandoned(services, row), creator));
  }
  return listBody(results, total?.value ?? 0, page);
}

/** The email rendered for export in each locale, and the pre-send checks over those renders. */
async function checkEmail(
  services: Services,
  email: EmailRow,
  locales: readonly string[],
  dynamicContentProfileId: string | null,
): Promise<{ context: ExportContext; renders: Map<string, RenderOutput>; checks: PreSendCheckResult }> {
  const context = await loadExportContext(services, email, dynamicContentProfileId);
  // One budget for the request, shared by its locales and their audiences.
  const { renders, checks } = await checkForExport(services.renderer, context, locales, {
    budget: services.renderer.budget(),
  });
  return { context, renders, checks };
}

/**
 * The checks that gate an email's review and publishing: every locale, rendered as exported
 * without a dynamic content profile, the same function an export's checks run.
 */
export function preSendCheckerOf(services: Services): PreSendChecker {
  return async (email) => (await checkEmail(services, email, email.locales, null)).checks;
}

/** The pre-send checks of an email in one locale or all of its locales. */
export async function checkEmailBeforeSending(
  services: Services,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  query: { locale?: string | undefined; dynamic_content_profile_id?: string | undefined },
): Promise<PreSendCheckResult> {
  const { email } = await findVisibleEmail(services, principal, workspaceId, emailId);
  if (query.locale !== undefined && !email.locales.includes(query.locale))
    throw ValidationError.field('locale', 'is not a locale of this email');
  const locales = query.locale === undefined ? email.locales : [query.locale];
  return (await checkEmail(services, email, locales, query.dynamic_content_profile_id ?? null)).checks;
}

/**
 * The library images the renders show (the export's metadata), and a warning per locale and
 * picture that Letterset does not store: a zip cannot hold it, so it stays at its address.
 */
async function imagesShown(
  services: Pick<Services, 'database'>,
  organizationId: number,
  locales: readonly string[],
  renders: ReadonlyMap<string, RenderOutput>,
): Promise<{ imageIds: Set<string>; notPacked: PreSendProblem[] }> {
  const storedImages = new StoredImages(services.database, organizationId);
  const imageIds = new Set<string>();
  const notPacked: PreSendProblem[] = [];
  for (const locale of locales) {
    const output = renders.get(locale);
    if (!output) continue;
    const { stored, external } = await storedImages.shownIn(output.html);
    for (const image of stored.values()) if (image.kind === 'library') imageIds.add(image.id);
    for (const url of external)
      notPacked.push({
        code: preSendProblemCodes.imageNotPacked,
        severity: 'warning',
        locale,
        branch: null,
        component_instance_id: null,
        message: `An image Letterset does not store stays at its address instead of going in the zip: ${url}`,
      });
  }
  return { imageIds, notPacked };
}

/** What a request asks that this email and export type cannot do. */
function optionProblems(email: EmailRow, body: Static<typeof CreateExportBody>): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const unknownLocales = body.options.locales.filter((locale) => !email.locales.includes(locale));
  if (unknownLocales.length > 0)
    problems['options.locales'] = [
      `${unknownLocales.join(', ')} ${unknownLocales.length === 1 ? 'is not a locale' : 'are not locales'} of this email`,
    ];
  if (body.options.image_mode === 'include_in_zip' && body.export_type !== 'html')
    problems['options.image_mode'] = [
      'include_in_zip is for html exports (the images go in the zip); use use_cdn',
    ];
  const strayLocales = Object.keys(body.options.per_locale_options ?? {}).filter(
    (locale) => !body.options.locales.includes(locale),
  );
  if (strayLocales.length > 0)
    problems['options.per_locale_options'] = [
      `names locales the export does not include: ${strayLocales.join(', ')}`,
    ];
  return problems;
}

/** The connector a connector export goes to (one of the workspace's); file exports name none. */
async function connectorFor(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  body: Static<typeof CreateExportBody>,
) {
  if (body.export_type !== 'connector') {
    if (body.connector_id != null)
      throw ValidationError.field('connector_id', 'is only for connector exports');
    return null;
  }
  if (body.connector_id == null)
    throw ValidationError.field('connector_id', 'is required for connector exports');
  const [connector] = await services.database.db
    .select({ id: connectors.id, integrationName: connectors.integrationName })
    .from(connectors)
    .where(and(eq(connectors.id, body.connector_id), eq(connectors.workspaceId, workspaceId)));
  if (!connector) throw ValidationError.field('connector_id', 'is not a connector of this workspace');
  return connector;
}

/**
 * Starts an export: the pre-send checks run first (a blocking problem answers 422 listing them);
 * then the export is recorded, with the checks' warnings, and its job queued.
 */
export async function createExport(
  services: Services,
  principal: Principal,
  workspaceId: number,
  body: Static<typeof CreateExportBody>,
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, body.email_id);
  if (body.export_type === 'connector') {
    // What goes to a sending platform goes to recipients: only a published email may.
    if (email.status !== 'published')
      throw ValidationError.field(
        'email_id',
        `is ${email.status}: connector exports need a published email (file exports take any status)`,
      );
  }
  const connector = await connectorFor(services, workspaceId, body);
  const problems = optionProblems(email, body);
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);

  const locales = body.options.locales;
  const profileId = body.dynamic_content_profile_id ?? null;
  const { context, renders, checks } = await checkEmail(services, email, locales, profileId);
  if (!checks.ready) {
    const errors: Record<string, string[]> = {};
    for (const problem of checks.problems) {
      if (problem.severity !== 'blocking') continue;
      const key = problem.locale === null ? 'checks' : `checks.${problem.locale}`;
      errors[key] = [...(errors[key] ?? []), problem.message];
    }
    throw new ValidationError(errors, 'The email is not ready to export: fix the blocking problems first');
  }

  const { imageIds, notPacked } = await imagesShown(services, principal.organizationId, locales, renders);
  // Only the zip has images in it: by public URL, every picture is loaded from its address anyway.
  const packingWarnings =
    body.export_type === 'html' && body.options.image_mode === 'include_in_zip' ? notPacked : [];
  const options: StoredExportOptions = { ...body.options, image_mode: body.options.image_mode ?? 'use_cdn' };
  const [row] = await services.database.db
    .insert(exports)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      emailId: email.id,
      emailName: email.name,
      emailStatus: email.status,
      createdById: principal.userId,
      exportType: body.export_type,
      connectorId: connector?.id ?? null,
      integrationName: connector?.integrationName ?? null,
      dynamicContentProfileId: profileId,
      options,
      metadata: {
        ...dynamicContentUsedIn(context.content, context.brandedComponents, locales),
        image_ids: [...imageIds].sort(),
      },
      warnings: [...checks.problems, ...packingWarnings],
      localesTotal: locales.length,
    })
    .returning();
  if (!row) throw new Error('export insert returned nothing');
  let jobId: string;
  try {
    jobId = await services.jobs.send('export', { export_id: row.id });
  } catch (error) {
    await failExport(services, row.id, { base: ['The export could not be queued; start it again'] });
    throw error;
  }
  await services.database.db.update(exports).set({ jobId }).where(eq(exports.id, row.id));
  return getExport(services, workspaceId, row.id);
}

function notReady(row: ExportRow, what: string): ValidationError {
  return ValidationError.field(
    'status',
    row.status === 'in_progress'
      ? `is in_progress: ${what} is there once the export has completed`
      : `is failed: the export has no ${what}`,
  );
}

/** The outputs of a completed json export. */
export async function getExportData(
  services: Pick<Services, 'database' | 'jobs' | 'storage'>,
  workspaceId: number,
  id: number,
): Promise<Static<typeof ExportData>> {
  const { row } = await findExport(services, workspaceId, id);
  if (row.exportType !== 'json')
    throw ValidationError.field('export_type', `is ${row.exportType}: export data is kept for json exports`);
  if (row.status !== 'completed' || !row.fileKey) throw notReady(row, 'export data');
  return JSON.parse((await readStoredFile(services.storage, row.fileKey)).toString('utf8'));
}

function fileNameOf(row: ExportRow): string {
  const base =
    row.emailName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'email';
  const extension = fileExtensions[row.exportType as keyof typeof fileExtensions] ?? 'bin';
  return `${base}-export-${row.id}.${extension}`;
}

/** Sends the export's file (zip, JSON or PDF) as a download. */
export async function sendExportFile(
  services: Pick<Services, 'database' | 'jobs' | 'storage'>,
  workspaceId: number,
  id: number,
  reply: FastifyReply,
) {
  const { row } = await findExport(services, workspaceId, id);
  if (row.status !== 'completed' || !row.fileKey) throw notReady(row, 'file');
  const file = await services.storage.get(row.fileKey);
  if (!file) throw new NotFoundError('The export file is no longer stored');
  return reply
    .header('content-type', file.contentType)
    .header('content-length', file.size)
    .header('content-disposition', `attachment; filename="${fileNameOf(row)}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.body);
}
