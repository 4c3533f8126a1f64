import { and, eq } from 'drizzle-orm';
import { emails, exports } from '../../db/schema.ts';
import type { Services } from '../../services.ts';
import { publishStarterImages } from '../organizations/starter-images.ts';
import { rewriteStoredImages, StoredImages } from './export-images.ts';
import {
  type LocaleOutput,
  loadExportContext,
  renderErrors,
  renderForExport,
  resourceName,
} from './export-outputs.ts';
import { type ExportWriter, writerFor } from './export-writers.ts';
import { ExportFailure } from './pdf-printer.ts';

export type ExportRow = typeof exports.$inferSelect;

/** What became of one run of an export's job. */
export type ExportRunOutcome = 'completed' | 'failed' | 'already_finished';

/** Marks an export failed with its errors (by locale, or `base`), unless it has finished already. */
export async function failExport(
  services: Pick<Services, 'database'>,
  id: number,
  errors: Record<string, string[]>,
): Promise<void> {
  await services.database.db
    .update(exports)
    .set({ status: 'failed', exportErrors: errors, completedAt: new Date() })
    .where(and(eq(exports.id, id), eq(exports.status, 'in_progress')));
}

/**
 * The export job's work: render each locale (the design system, components, brand profile and
 * dynamic content are loaded once), hand each output to the type's writer, count the locales
 * done as it goes, then record the result.
 *
 * Safe to run again after a crash or a shutdown: an export that finished is left alone, and an
 * unfinished one starts over (a new attempt writes a new file key; the row points at a file only
 * once it is completed). Problems that trying again cannot fix (a template error, no Chromium) fail
 * the export at once; anything else is thrown, for the queue to retry.
 */
export async function runExport(
  services: Services,
  exportId: number,
  signal: AbortSignal,
): Promise<ExportRunOutcome> {
  const db = services.database.db;
  const [record] = await db.select().from(exports).where(eq(exports.id, exportId));
  if (record?.status !== 'in_progress') return 'already_finished';
  const unfinished = and(eq(exports.id, exportId), eq(exports.status, 'in_progress'));
  await db.update(exports).set({ localesDone: 0 }).where(unfinished);

  const [email] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.id, record.emailId), eq(emails.organizationId, record.organizationId)));
  if (!email) {
    await failExport(services, exportId, { base: ['The email was deleted before it could be exported'] });
    return 'failed';
  }

  // Only while unfinished: a stale attempt still rendering must not rewrite a finished export's count.
  const recordProgress = async (localesDone: number) => {
    await db.update(exports).set({ localesDone }).where(unfinished);
  };
  let writer: ExportWriter | null = null;
  try {
    const context = await loadExportContext(services, email, record.dynamicContentProfileId);
    const imageMode = record.options.image_mode ?? 'use_cdn';
    writer = writerFor(
      services,
      {
        id: record.id,
        organizationId: record.organizationId,
        emailId: record.emailId,
        emailName: record.emailName,
        exportType: record.exportType,
        imageMode,
        connectorId: record.connectorId,
        options: record.options,
      },
      {
        progress: (localesDone) => recordProgress(localesDone),
        delivered: async (deliveredResources) => {
          await db.update(exports).set({ deliveredResources }).where(unfinished);
        },
      },
    );
    const storedImages = new StoredImages(services.database, record.organizationId);
    const errors: Record<string, string[]> = {};
    let done = 0;
    for (const locale of record.options.locales) {
      signal.throwIfAborted();
      if (!email.locales.includes(locale)) {
        errors[locale] = ['The email no longer has this locale'];
        continue;
      }
      // One budget per locale: a long export is many steps, each bounded on its own.
      const rendered = (
        await renderForExport(services.renderer, context, [locale], {
          budget: services.renderer.budget(),
          plainText: true,
        })
      ).get(locale);
      if (!rendered) throw new Error(`no render of ${locale}`);
      const problems = renderErrors(rendered);
      if (problems.length > 0) {
        errors[locale] = problems;
        continue;
      }
      const { stored } = await storedImages.shownIn(rendered.html);
      // By public URL, a starter picture must be in this storage (one copy per process and storage).
      if (imageMode === 'use_cdn' && [...stored.values()].some((image) => image.kind === 'starter'))
        await publishStarterImages(services.storage);
      // Every stored image at its place in the zip, or at the public URL the storage has now (an
      // email keeps the address an image had when chosen, which may be an internal one since left).
      const { html, images } = rewriteStoredImages(rendered.html, stored, (image) =>
        imageMode === 'include_in_zip'
          ? `images/${image.fileName}`
          : services.storage.publicUrl(image.storageKey),
      );
      const output: LocaleOutput = {
        locale,
        name: resourceName({ name: record.emailName }, record.options, locale),
        subject: rendered.subject,
        preheader: rendered.preheader,
        html,
        plain_text: rendered.plainText,
        images,
      };
      // Errors found so far fail the export: no need to write more.
      if (Object.keys(errors).length === 0) await writer.add(output);
      done += 1;
      if (!writer.countsLocales) await recordProgress(done);
    }
    if (Object.keys(errors).length > 0) {
      await failExport(services, exportId, errors);
      return 'failed';
    }
    signal.throwIfAborted();
    const written = await writer.finish();
    const [completed] = await db
      .update(exports)
      .set({
        status: 'completed',
        // Its own count: a concurrent attempt (a stale one) may have reset the row's meanwhile.
        localesDone: done,
        fileKey: written.fileKey,
        openInIntegrationUrl: written.openInIntegrationUrl,
        completedAt: new Date(),
      })
      .where(and(eq(exports.id, exportId), eq(exports.status, 'in_progress')))
      .returning({ id: exports.id });
    if (!completed) {
      // Another attempt (a stale one that outlived its expiry) finished first: its file stands.
      if (written.fileKey) await services.storage.delete(written.fileKey);
      return 'already_finished';
    }
    return 'completed';
  } catch (error) {
    if (!(error instanceof ExportFailure)) throw error;
    await failExport(services, exportId, error.localeErrors ?? { base: [error.message] });
    return 'failed';
  } finally {
    await writer?.close();
  }
}
