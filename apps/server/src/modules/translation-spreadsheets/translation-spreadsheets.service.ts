import {
  applyBrandProfile,
  applyTranslations,
  type ComponentDefinition,
  collectTranslatableValues,
  type EmailContent,
  permissionsForContentChange,
  type TranslatableValue,
  type TranslationUpdate,
  translationRows,
} from '@letterset/core';
import { eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { conditionals, emails } from '../../db/schema.ts';
import { requirePermission } from '../../http/access.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { limits } from '../../http/schemas.ts';
import type { UploadedFile } from '../../http/uploads.ts';
import type { Services } from '../../services.ts';
import { findBrandProfile, toBrandProfileDefinition } from '../brand-profiles/brand-profiles.service.ts';
import { announceEmailEvent } from '../emails/email-events.ts';
import { recordVersion } from '../emails/email-version-records.ts';
import { findVisibleEmail } from '../emails/email-visibility.ts';
import { assertEditable } from '../emails/emails.lifecycle.ts';
import { contentOf, type EmailRow } from '../emails/emails.serializers.ts';
import { designSystemComponents } from '../renders/renders.service.ts';
import { readTranslationsCsv, translationsCsv } from './translation-csv.ts';
import type { ImportedTranslations, TranslationFileProblems } from './translation-file.ts';
import type { SpreadsheetFormat, TranslationImportResult } from './translation-spreadsheets.schemas.ts';
import { readTranslationsXliff, translationsXliff } from './translation-xliff.ts';

/** What reading an email's translatable values needs besides the email: its components and conditionals. */
interface TranslationContext {
  /** The design system's components with the email's brand profile applied (labels, defaults). */
  components: ComponentDefinition[];
  branchKeysOf: (conditionalId: number) => readonly string[] | undefined;
}

async function translationContext(services: Services, email: EmailRow): Promise<TranslationContext> {
  const [{ definitions }, brandProfile, conditionalRows] = await Promise.all([
    designSystemComponents(services, email.emailDesignSystemId),
    email.brandProfileId === null
      ? null
      : findBrandProfile(services, email.emailDesignSystemId, email.brandProfileId)
          .then(toBrandProfileDefinition)
          .catch(() => null),
    services.database.db
      .select({ id: conditionals.id, branches: conditionals.branches })
      .from(conditionals)
      .where(eq(conditionals.workspaceId, email.workspaceId)),
  ]);
  const branchKeys = new Map(
    conditionalRows.map((row) => [row.id, row.branches.map((branch) => branch.key)]),
  );
  return {
    components: applyBrandProfile(definitions, brandProfile),
    branchKeysOf: (conditionalId) => branchKeys.get(conditionalId),
  };
}

function valuesOf(content: EmailContent, context: TranslationContext): TranslatableValue[] {
  return collectTranslatableValues({
    content,
    components: context.components,
    branchKeysOf: context.branchKeysOf,
  });
}

/** A file name for the Content-Disposition header: the email's name, as far as a header can carry it. */
export function downloadFileName(emailName: string, suffix: string): { ascii: string; encoded: string } {
  const name = `${emailName}-${suffix}`;
  return {
    // Quotes, backslashes, controls and non-Latin letters cannot go in a quoted header value.
    ascii: name.replace(/[^\x20-\x7e]|["\\]/g, '_'),
    encoded: encodeURIComponent(name).replace(
      /['()*]/g,
      (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
    ),
  };
}

export interface TranslationDownload {
  contentType: string;
  fileName: { ascii: string; encoded: string };
  body: string;
}

/**
 * The email's translatable values as a file: CSV with every locale, or XLIFF 2.0 for one target
 * locale (422 without one, or with the default locale or a locale the email lacks).
 */
export async function downloadTranslations(
  services: Services,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  query: { format?: SpreadsheetFormat; locale?: string },
): Promise<TranslationDownload> {
  const { email } = await findVisibleEmail(services, principal, workspaceId, emailId);
  const format = query.format ?? 'csv';
  if (format === 'xliff') {
    if (query.locale === undefined) {
      throw ValidationError.field('locale', 'is required with format=xliff: the locale to translate into');
    }
    if (!email.locales.includes(query.locale))
      throw ValidationError.field('locale', 'is not a locale of this email');
    if (query.locale === email.defaultLocale) {
      throw ValidationError.field(
        'locale',
        'is the email’s default locale: choose a locale to translate into',
      );
    }
  }
  const context = await translationContext(services, email);
  const rows = translationRows(valuesOf(contentOf(email), context), {
    defaultLocale: email.defaultLocale,
    locales: email.locales,
  });
  if (format === 'xliff' && query.locale !== undefined) {
    return {
      contentType: 'application/xliff+xml; charset=utf-8',
      fileName: downloadFileName(email.name, `${query.locale}.xlf`),
      body: translationsXliff(rows, {
        defaultLocale: email.defaultLocale,
        targetLocale: query.locale,
        emailId: email.id,
        emailName: email.name,
      }),
    };
  }
  return {
    contentType: 'text/csv; charset=utf-8',
    fileName: downloadFileName(email.name, 'translations.csv'),
    body: translationsCsv(rows, {
      defaultLocale: email.defaultLocale,
      targets: email.locales.filter((locale) => locale !== email.defaultLocale),
    }),
  };
}

const fileFields = { csv: 'csv_file', xliff: 'xliff_file' } as const satisfies Record<
  SpreadsheetFormat,
  string
>;

/**
 * Imports a CSV or XLIFF file into the email as ONE new version, or not at all. The file is read
 * first; then, under the email's row lock (so an editor's save in between is neither lost nor
 * overwritten), every text is checked against the current content and its field's validations.
 */
export async function importTranslations(
  services: Services,
  principal: Principal,
  workspaceId: number,
  emailId: number,
  format: SpreadsheetFormat,
  file: UploadedFile | undefined,
): Promise<Static<typeof TranslationImportResult>> {
  const { email } = await findVisibleEmail(services, principal, workspaceId, emailId);
  const field = fileFields[format];
  assertEditable(email.status);
  if (!file || file.field !== field) {
    const other = file ? ` (the file came as ${file.field}; with format=${format} it is ${field})` : '';
    throw ValidationError.field(
      field,
      `is required: the ${format === 'csv' ? 'CSV' : 'XLIFF'} file to import${other}`,
    );
  }
  if (file.truncated) {
    throw ValidationError.field(
      field,
      `is larger than ${Math.round(services.config.maxImageBytes / 1024 / 1024)} MB`,
    );
  }
  const locales = { defaultLocale: email.defaultLocale, locales: email.locales };
  const imported =
    format === 'csv'
      ? await readTranslationsCsv(file.bytes, locales)
      : await readTranslationsXliff(file.bytes, locales);
  const context = await translationContext(services, email);

  return services.database.db.transaction(async (tx) => {
    // Locked: a save landing now waits, then finds a new lock_version (409 for a stale one).
    const [current] = await tx.select().from(emails).where(eq(emails.id, email.id)).for('update');
    if (!current) throw new NotFoundError();
    assertEditable(current.status);
    const content = contentOf(current);
    const result = applyImport(imported, valuesOf(content, context), {
      content,
      defaultLocale: current.defaultLocale,
      locales: current.locales,
      fileField: field,
    });
    const counts = {
      changed: result.changed,
      unchanged: result.unchanged,
      skipped: imported.skipped,
    };
    const total = Object.values(result.changed).reduce((sum, count) => sum + count, 0);
    if (total === 0) return { ...counts, lock_version: current.lockVersion };

    for (const permission of permissionsForContentChange(
      { content, locales: current.locales },
      { content: result.content, locales: current.locales },
    )) {
      requirePermission(principal, permission);
    }
    const [row] = await tx
      .update(emails)
      .set({
        content: result.content as unknown as EmailRow['content'],
        lockVersion: sql`${emails.lockVersion} + 1`,
        lastUpdatedById: principal.userId,
      })
      .where(eq(emails.id, current.id))
      .returning();
    if (!row) throw new NotFoundError();
    await recordVersion(tx, row, principal);
    await announceEmailEvent(tx, {
      type: 'content_changed',
      email_id: row.id,
      lock_version: row.lockVersion,
    });
    return { ...counts, lock_version: row.lockVersion };
  });
}

/** The file's texts applied to the content; every problem reported where it is in the file (422). */
function applyImport(
  imported: ImportedTranslations,
  values: readonly TranslatableValue[],
  options: { content: EmailContent; defaultLocale: string; locales: readonly string[]; fileField: string },
) {
  const problems: TranslationFileProblems = imported.problems;
  const known = new Set(values.map((value) => value.key));
  const updates: TranslationUpdate[] = [];
  const whereOf: string[] = [];
  for (const entry of imported.entries) {
    // A key the email no longer has: the file is older than the email (or from another one).
    if (!known.has(entry.key)) {
      problems.at(
        entry.where,
        'is not a translatable value of this email: download the file again (a component, field or branch may have been removed)',
      );
      continue;
    }
    for (const text of entry.texts) {
      updates.push({ key: entry.key, locale: text.locale, text: text.text });
      whereOf.push(text.where);
    }
  }
  const result = applyTranslations({
    content: options.content,
    values,
    defaultLocale: options.defaultLocale,
    locales: options.locales,
    updates,
    maxLength: { branchedText: limits.text, fieldValue: limits.contentValue },
  });
  for (const problem of result.problems) {
    for (const message of problem.messages) problems.at(whereOf[problem.index] ?? options.fileField, message);
  }
  problems.throwIfAny();
  const zero = Object.fromEntries(imported.locales.map((locale) => [locale, 0]));
  return {
    content: result.content,
    changed: { ...zero, ...result.changed },
    unchanged: { ...zero, ...result.unchanged },
  };
}
