import { setImmediate } from 'node:timers/promises';
import type { TranslationRow } from '@letterset/core';
import { stringify } from 'csv-stringify/sync';
import { limits } from '../../http/schemas.ts';
import {
  type ImportedTranslations,
  type ImportLocales,
  localeColumn,
  TranslationFileProblems,
} from './translation-file.ts';

/**
 * How much of a CSV file Letterset reads: far beyond any translation spreadsheet (one row per text
 * of one email, a column per locale), and small enough that a hostile file is refused early, at
 * the cell or record that crosses the bound.
 */
export const csvLimits = {
  /** Rows below the header: one per translatable value of the email. */
  rows: 50_000,
  /** Cells in a row: key, component, field and a column per locale. */
  columns: 256,
  /** Characters in one cell: the longest value a field holds, and the apostrophe of a guarded formula. */
  cellCharacters: limits.contentValue + 1,
} as const;

/** Why a CSV file cannot be read: malformed, or past a bound of `csvLimits`. */
class CsvReadError extends Error {
  readonly kind: 'malformed' | 'limit';

  constructor(kind: 'malformed' | 'limit', message: string) {
    super(message);
    this.kind = kind;
  }
}

/** Characters read before the event loop gets a turn: a few milliseconds of work. */
const charactersPerTurn = 16 * 1024;

/**
 * The records of a CSV text (RFC 4180: cells in double quotes may hold delimiters, line breaks and
 * doubled quotes; rows end with CRLF, LF or CR; empty lines are skipped). One pass over the text,
 * each cell found with one search, so the time is in proportion to the size; every bound of
 * `csvLimits` is checked as the cell that crosses it is read, and other requests are answered
 * every `charactersPerTurn` characters.
 */
export async function parseCsv(text: string, delimiter: string): Promise<string[][]> {
  const records: string[][] = [];
  /** The next delimiter, line break or quote after an unquoted cell's start. */
  const unquotedEnd = new RegExp(`[${delimiter === '\t' ? '\\t' : delimiter}\\r\\n"]`, 'g');
  let position = 0;
  let line = 1;
  let nextTurn = charactersPerTurn;
  const fail = (kind: CsvReadError['kind'], message: string): never => {
    throw new CsvReadError(
      kind,
      kind === 'limit'
        ? `${message} (at line ${line}): Letterset stopped reading there`
        : `${message} at line ${line}`,
    );
  };
  const checkCell = (length: number) => {
    if (length > csvLimits.cellCharacters) {
      fail('limit', `has a cell of more than ${csvLimits.cellCharacters.toLocaleString('en-US')} characters`);
    }
  };
  while (position < text.length) {
    if (position >= nextTurn) {
      nextTurn = position + charactersPerTurn;
      await setImmediate();
    }
    const first = text[position];
    if (first === '\n' || first === '\r') {
      // An empty line: skipped.
      position += first === '\r' && text[position + 1] === '\n' ? 2 : 1;
      line += 1;
      continue;
    }
    if (records.length > csvLimits.rows) {
      fail('limit', `has more than ${csvLimits.rows.toLocaleString('en-US')} rows below the header`);
    }
    const record: string[] = [];
    for (;;) {
      if (record.length >= csvLimits.columns)
        fail('limit', `has a row of more than ${csvLimits.columns} cells`);
      let cell: string;
      if (text[position] === '"') {
        let from = position + 1;
        let quote = text.indexOf('"', from);
        // Most quoted cells hold no doubled quote: one slice, no pieces to join.
        let pieces: string[] | null = null;
        let length = 0;
        for (;;) {
          if (quote === -1) fail('malformed', 'Quote Not Closed: a quoted cell is not closed');
          length += quote - from;
          checkCell(length);
          if (text[quote + 1] !== '"') break;
          // A doubled quote is one quote in the cell.
          pieces ??= [];
          pieces.push(text.slice(from, quote + 1));
          length += 1;
          from = quote + 2;
          // A cell of many doubled quotes is many steps: other requests get their turns meanwhile.
          if (pieces.length % 8192 === 0) await setImmediate();
          quote = text.indexOf('"', from);
        }
        const last = text.slice(from, quote);
        cell = pieces === null ? last : pieces.join('') + last;
        for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) line += 1;
        position = quote + 1;
        const after = text[position];
        if (after !== undefined && after !== delimiter && after !== '\r' && after !== '\n') {
          fail('malformed', `Invalid Closing Quote: the quote closing a cell is followed by "${after}"`);
        }
      } else {
        unquotedEnd.lastIndex = position;
        const end = unquotedEnd.exec(text)?.index ?? text.length;
        if (text[end] === '"') {
          fail(
            'malformed',
            'Invalid Opening Quote: a quote is found inside a cell that does not start with one',
          );
        }
        cell = text.slice(position, end);
        checkCell(cell.length);
        position = end;
      }
      record.push(cell);
      if (text[position] === delimiter) {
        position += 1;
        continue;
      }
      // A line break or the end of the text ends the row.
      position += text[position] === '\r' && text[position + 1] === '\n' ? 2 : 1;
      line += 1;
      break;
    }
    records.push(record);
  }
  return records;
}

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
export async function readTranslationsCsv(
  bytes: Buffer,
  locales: ImportLocales,
): Promise<ImportedTranslations> {
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
    records = await parseCsv(text, delimiterOf(text));
  } catch (error) {
    if (!(error instanceof CsvReadError)) throw error;
    problems.file(error.kind === 'limit' ? error.message : `is not valid CSV: ${error.message}`);
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
