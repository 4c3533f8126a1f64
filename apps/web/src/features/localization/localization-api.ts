import type { components } from '@letterset/api-client';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import type { Email } from '../editor/editor-api.ts';

export type TranslationImportResult = components['schemas']['TranslationImportResult'];
export type SpreadsheetFormat = 'csv' | 'xliff';

/**
 * Where a translation file downloads from: same-origin, so the browser's session cookie signs the
 * request, and the server names the file (`<email name>-translations.csv`, `<email name>-fr-FR.xlf`).
 */
export function translationsDownloadHref(
  workspaceId: number,
  emailId: number,
  format: SpreadsheetFormat,
  locale?: string,
): string {
  const path = `/api/v1/workspaces/${workspaceId}/emails/${emailId}/translation_spreadsheets`;
  if (format === 'csv') return path;
  return `${path}?${new URLSearchParams({ format, locale: locale ?? '' }).toString()}`;
}

/** The format a chosen file is read as, from its name: CSV, or XLIFF (.xlf, .xliff, .xml). */
export function formatOfFile(fileName: string): SpreadsheetFormat | null {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension === 'csv' || extension === 'txt') return 'csv';
  if (extension === 'xlf' || extension === 'xliff' || extension === 'xml') return 'xliff';
  return null;
}

/** Imports a CSV or XLIFF file into the saved email: one new version, or a 422 listing every problem. */
export function importTranslationFile(
  workspaceId: number,
  emailId: number,
  file: File,
  format: SpreadsheetFormat,
): Promise<TranslationImportResult> {
  const body = new FormData();
  body.append(format === 'csv' ? 'csv_file' : 'xliff_file', file, file.name);
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{email_id}/translation_spreadsheets', {
      params: { path: { workspace_id: workspaceId, email_id: emailId }, query: { format } },
      // openapi-fetch sends FormData as it is, with its multipart boundary.
      body: body as unknown as { csv_file?: string; xliff_file?: string },
    }),
  );
}

/** The email as saved now: what the editor reopens on after an import. */
export function reloadEmail(workspaceId: number, emailId: number): Promise<Email> {
  return unwrap(
    api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
    }),
  );
}

/** A 422's places (`row 3, column fr-FR`, `unit … (line 12)`, `csv_file`) with their messages, in file order. */
export function importProblems(
  fieldErrors: Record<string, string[]>,
): { where: string; messages: string[] }[] {
  const fileLevel = new Set(['csv_file', 'xliff_file']);
  const entries = Object.entries(fieldErrors).map(([where, messages]) => ({
    where: fileLevel.has(where) ? 'The file' : where,
    messages,
  }));
  // The file as a whole first, then the places in the order the server found them.
  return [
    ...entries.filter((entry) => entry.where === 'The file'),
    ...entries.filter((entry) => entry.where !== 'The file'),
  ];
}

/**
 * Imports that just finished, by email id. Reopening the editor on the imported email starts a
 * fresh editor; this is how the new one shows what the import changed, in the Localization panel.
 */
const recentImports = new Map<
  number,
  { result: TranslationImportResult; fileName: string; reopen: boolean }
>();

export function rememberImport(emailId: number, result: TranslationImportResult, fileName: string): void {
  recentImports.set(emailId, { result, fileName, reopen: true });
}

export function recentImport(emailId: number) {
  return recentImports.get(emailId) ?? null;
}

export function forgetImport(emailId: number): void {
  recentImports.delete(emailId);
}

/** Emails whose editor reopens on the Localization panel after a machine translation wrote them. */
const reopenAfterTranslation = new Set<number>();

export function reopenOnLocalization(emailId: number): void {
  reopenAfterTranslation.add(emailId);
}

/**
 * Whether the editor opening on this email should show the Localization panel (once, after an
 * import or a machine translation).
 */
export function takeReopenAfterImport(emailId: number): boolean {
  if (reopenAfterTranslation.delete(emailId)) return true;
  const entry = recentImports.get(emailId);
  if (!entry?.reopen) return false;
  entry.reopen = false;
  return true;
}

export type EmailTranslation = components['schemas']['EmailTranslation'];

/** The email's latest AI translation (started here or elsewhere), or null when it has none. */
export async function latestTranslation(
  workspaceId: number,
  emailId: number,
): Promise<EmailTranslation | null> {
  const page = await unwrap(
    api.GET('/api/v1/workspaces/{workspace_id}/emails/{email_id}/email_translations', {
      params: { path: { workspace_id: workspaceId, email_id: emailId }, query: { per: 1 } },
    }),
  );
  return page.results[0] ?? null;
}

/** Starts an AI translation of the email's default locale into the locales given. */
export function startTranslation(
  workspaceId: number,
  emailId: number,
  body: { target_locales: string[]; ai_agent_id: number | null },
) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{email_id}/email_translations', {
      params: { path: { workspace_id: workspaceId, email_id: emailId } },
      body: { target_locales: body.target_locales as never, ai_agent_id: body.ai_agent_id },
    }),
  );
}
