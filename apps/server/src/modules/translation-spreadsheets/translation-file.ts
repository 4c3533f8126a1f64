import { localeCodes } from '@letterset/core';
import { ValidationError } from '../../http/errors.ts';

/** Characters the parser reads before the event loop gets a turn: a few milliseconds of work. */
const parseChunkCharacters = 4 * 1024;

/** The text in pieces of about `parseChunkCharacters`, never splitting a surrogate pair. */
export function* inChunks(text: string, size = parseChunkCharacters): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
}

/** The locales of the email a translation file is imported into. */
export interface ImportLocales {
  defaultLocale: string;
  locales: readonly string[];
}

/** What a translation file (CSV or XLIFF) holds, once its shape is known to be right. */
export interface ImportedTranslations {
  /** The locales the file brings texts for (never the default locale). */
  locales: string[];
  /** One per translatable value the file names, in file order. */
  entries: {
    key: string;
    /** Where the key is, as problems with it are reported (`row 3, column key`, `unit … (line 12)`). */
    where: string;
    /** The non-empty texts, each with where it is (`row 3, column fr-FR`). */
    texts: { locale: string; text: string; where: string }[];
  }[];
  /** Per locale, the empty cells (or units without a target): they leave the value as it is. */
  skipped: Record<string, number>;
  /**
   * Problems of rows or units found while reading (a key twice, a blank key): reported together
   * with those found against the email's content, in one 422.
   */
  problems: TranslationFileProblems;
}

/** Listing a thousand broken cells helps nobody: the first ones are enough to see the pattern. */
const mostProblemsListed = 200;
/** Likewise for the messages of one place (a unit holding a thousand different inline tags, say). */
const mostMessagesPerPlace = 10;

/** Problems of a translation file, reported all at once as one 422 that names where each one is. */
export class TranslationFileProblems {
  /** Per place, its distinct messages (a Set: adding one costs the same however many there are). */
  private readonly errors = new Map<string, Set<string>>();
  private unlisted = 0;
  private readonly fileField: string;

  constructor(fileField: string) {
    this.fileField = fileField;
  }

  /** A problem of the file as a whole, reported under its form field (`csv_file`, `xliff_file`). */
  file(message: string): void {
    this.at(this.fileField, message);
  }

  at(where: string, message: string): void {
    let messages = this.errors.get(where);
    if (!messages) {
      // Problems of the file as a whole are always listed: they say why it was refused.
      if (this.errors.size >= mostProblemsListed && where !== this.fileField) {
        this.unlisted += 1;
        return;
      }
      messages = new Set();
      this.errors.set(where, messages);
    }
    if (messages.size < mostMessagesPerPlace || where === this.fileField) messages.add(message);
  }

  get any(): boolean {
    return this.errors.size > 0;
  }

  /** Throws the 422 when there is any problem; nothing has been written by then. */
  throwIfAny(): void {
    if (this.any) this.fail();
  }

  /** Throws the 422 with the problems found so far. */
  fail(): never {
    const errors: Record<string, string[]> = Object.fromEntries(
      [...this.errors].map(([where, messages]) => [where, [...messages]]),
    );
    if (this.unlisted > 0) {
      errors[this.fileField] = [
        ...(errors[this.fileField] ?? []),
        `has ${this.unlisted} more problem${this.unlisted === 1 ? '' : 's'} not listed here`,
      ];
    }
    throw new ValidationError(errors, 'The translations were not imported: nothing was changed');
  }
}

const canonicalLocales = new Map(localeCodes.map((code) => [code.toLowerCase(), code]));

/** What a column header (or an XLIFF language) is to an import into the email. */
export type LocaleColumn =
  | { kind: 'source' }
  | { kind: 'target'; locale: string }
  | { kind: 'problem'; message: string };

/** A locale code (any letter case) as a column of the email: its default locale, another of its locales, or a problem. */
export function localeColumn(name: string, email: ImportLocales): LocaleColumn {
  const locale = canonicalLocales.get(name.trim().toLowerCase());
  if (!locale) {
    return {
      kind: 'problem',
      message: `is not a column of a translation spreadsheet: the columns are key, component, field and locale codes of this email (${email.locales.join(', ')})`,
    };
  }
  if (locale === email.defaultLocale) return { kind: 'source' };
  if (!email.locales.includes(locale)) {
    return {
      kind: 'problem',
      message: `is not a locale of this email: add ${locale} to the email first, or remove the column (its locales: ${email.locales.join(', ')})`,
    };
  }
  return { kind: 'target', locale };
}
