import type { TranslationRow } from '@letterset/core';
import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  type ImportedTranslations,
  type ImportLocales,
  localeColumn,
  TranslationFileProblems,
} from './translation-file.ts';

/** The columns before the locales: the value's key and, for the translator, where it is. */
export const fixedColumns = ['key', 'component', 'field'] as const;

/** What a spreadsheet app reads as the start of a formula (OWASP's list for CSV injection). */
const formulaStart = /^'*[=+\-@\t\r]/;

/**
 * A cell a spreadsheet app would run as a formula (`=HYPERLINK(…)` in a translated text, say) is
 * written with a leading apostrophe, which makes it text; `unguardFormula` takes it off again on
 * import, so every value comes back exactly. A value that already starts with apostrophes before
 * such a character gets one more, so it too comes back as it was.
 */
export function guardFormula(cell: string): string {
  return formulaStart.test(cell) ? `'${cell}` : cell;
}

export function unguardFormula(cell: string): string {
  return cell.startsWith("'") && formulaStart.test(cell) ? cell.slice(1) : cell;
}

/**
 * A translation spreadsheet as CSV: UTF-8 with a byte order mark (so spreadsheet apps read it as
 * UTF-8), CRLF line ends, RFC 4180 quoting; every cell holding a comma, a quote, a CR or a LF is
 * quoted; formulas guarded. Columns: key, component, field, the default locale, then the other
 * locales.
 */
export function translationsCsv(
  rows: readonly TranslationRow[],
  locales: { defaultLocale: string; targets: readonly string[] },
): string {
  const records = [
    [...fixedColumns, locales.defaultLocale, ...locales.targets],
    ...rows.map((row) => [
      row.key,
      ...[
        row.componentLabel,
        row.fieldLabel,
        row.sourceText,
        ...locales.targets.map((locale) => row.targetTexts[locale] ?? ''),
      ].map(guardFormula),
    ]),
  ];
  return stringify(records, {
    bom: true,
    record_delimiter: 'windows',
    // csv-stringify quotes a line break only when it is the record delimiter; RFC 4180 wants any.
    quoted_match: /[\r\n]/,
  });
}

/**
 * The column delimiter of the file: spreadsheet apps in some regions save CSV with semicolons
 * (or tabs). Read from the header row, which holds no quoted cells.
 */
function delimiterOf(text: string): string {
  const headerEnd = text.search(/[\r\n]/);
  const header = headerEnd === -1 ? text : text.slice(0, headerEnd);
  for (const candidate of [',', ';', '\t']) if (header.includes(candidate)) return candidate;
  return ',';
}

/**
 * The texts of a translation spreadsheet, checked for its shape (not yet against the email's
 * content): UTF-8, valid CSV, a `key` column, locale columns naming locales of the email, no key
 * twice. Rows are numbered as a spreadsheet app numbers them: the header is row 1. Empty cells are
 * left out (they change nothing); the default locale's column, `component` and `field` are read-only.
 */
export function readTranslationsCsv(bytes: Buffer, locales: ImportLocales): ImportedTranslations {
  const problems: TranslationFileProblems = new TranslationFileProblems('csv_file');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    problems.file(
      'is not UTF-8 text: save the spreadsheet as “CSV UTF-8” (a file in another encoding would garble its letters)',
    );
    problems.fail();
  }
  if (text.trim() === '') {
    problems.file('is empty: it needs a header row (key, component, field, locales) and one row per value');
    problems.fail();
  }

  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
    }) as string[][];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    problems.file(`is not valid CSV: ${error.message.replace(/^[^:]*: /, '')}`);
    problems.fail();
  }

  const [header = [], ...body] = records;
  const columns = header.map((name) => name.trim());
  const keyColumn = columns.findIndex((name) => name.toLowerCase() === 'key');
  if (keyColumn === -1) {
    problems.at(
      'row 1',
      'has no key column: the first row names the columns (key, component, field, locales)',
    );
  }
  const localeColumns: { index: number; locale: string }[] = [];
  const seenColumns = new Set<string>();
  columns.forEach((name, index) => {
    const where = `row 1, column ${name || index + 1}`;
    const lower = name.toLowerCase();
    if (seenColumns.has(lower)) {
      problems.at(where, 'is a column named twice');
      return;
    }
    seenColumns.add(lower);
    if ((fixedColumns as readonly string[]).includes(lower)) return;
    const column = localeColumn(name, locales);
    if (column.kind === 'problem') problems.at(where, column.message);
    else if (column.kind === 'target') localeColumns.push({ index, locale: column.locale });
  });
  problems.throwIfAny();

  const entries: ImportedTranslations['entries'] = [];
  const skipped: Record<string, number> = Object.fromEntries(localeColumns.map(({ locale }) => [locale, 0]));
  const rowOfKey = new Map<string, number>();
  body.forEach((record, index) => {
    const row = index + 2;
    if (record.length > columns.length) {
      problems.at(`row ${row}`, `has ${record.length} cells, but the header names ${columns.length} columns`);
      return;
    }
    const key = (record[keyColumn] ?? '').trim();
    const cells = localeColumns.map(({ index: column, locale }) => ({
      locale,
      text: unguardFormula(record[column] ?? ''),
    }));
    if (key === '') {
      if (cells.some((cell) => cell.text !== '')) problems.at(`row ${row}, column key`, "can't be blank");
      return;
    }
    const earlier = rowOfKey.get(key);
    if (earlier !== undefined) {
      problems.at(`row ${row}, column key`, `is also the key of row ${earlier}: each value has one row`);
      return;
    }
    rowOfKey.set(key, row);
    const texts: ImportedTranslations['entries'][number]['texts'] = [];
    for (const cell of cells) {
      if (cell.text === '') skipped[cell.locale] = (skipped[cell.locale] ?? 0) + 1;
      else texts.push({ locale: cell.locale, text: cell.text, where: `row ${row}, column ${cell.locale}` });
    }
    entries.push({ key, where: `row ${row}, column key`, texts });
  });
  return { locales: localeColumns.map(({ locale }) => locale), entries, skipped, problems };
}
