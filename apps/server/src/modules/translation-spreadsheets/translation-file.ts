import { localeCodes } from '@letterset/core';
import { ValidationError } from '../../http/errors.ts';

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

/** Problems of a translation file, reported all at once as one 422 that names where each one is. */
export class TranslationFileProblems {
  private readonly errors: Record<string, string[]> = {};
  private count = 0;
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
    if (!(where in this.errors) && this.count >= mostProblemsListed) {
      this.unlisted += 1;
      return;
    }
    if (!(where in this.errors)) this.count += 1;
    const messages = this.errors[where] ?? [];
    if (!messages.includes(message)) messages.push(message);
    this.errors[where] = messages;
  }

  get any(): boolean {
    return this.count > 0;
  }

  /** Throws the 422 when there is any problem; nothing has been written by then. */
  throwIfAny(): void {
    if (this.any) this.fail();
  }

  /** Throws the 422 with the problems found so far. */
  fail(): never {
    const errors = { ...this.errors };
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
