import { Type } from 'typebox';
import { Id, ref, WorkspaceIdParams } from '../../http/schemas.ts';
import { FileField } from '../../http/uploads.ts';
import { Locale } from '../email-content/email-content.schemas.ts';

export const spreadsheetFormats = ['csv', 'xliff'] as const;
export type SpreadsheetFormat = (typeof spreadsheetFormats)[number];

const Format = Type.Enum([...spreadsheetFormats], {
  description: 'csv (the default): every locale in one spreadsheet; xliff: XLIFF 2.0 for one target locale',
});

export const TranslationSpreadsheetParams = Type.Object({ ...WorkspaceIdParams.properties, email_id: Id() });

export const DownloadTranslationsQuery = Type.Object({
  format: Type.Optional(Format),
  /** With format=xliff (required there): the locale the file translates into. */
  locale: Type.Optional(ref(Locale)),
});

export const ImportTranslationsQuery = Type.Object({ format: Type.Optional(Format) });

export const ImportTranslationsBody = Type.Object(
  {
    csv_file: Type.Optional(
      FileField(
        'With format=csv (the default): the spreadsheet as CSV, UTF-8 (a byte order mark is fine), comma-, ' +
          'semicolon- or tab-separated, with the header row key, component, field and locale codes',
      ),
    ),
    xliff_file: Type.Optional(
      FileField('With format=xliff: an XLIFF 2.0 file whose trgLang is a locale of the email'),
    ),
  },
  { additionalProperties: false },
);

const CountsByLocale = (description: string) =>
  Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: `Per locale the file brings texts for: ${description}`,
  });

export const TranslationImportResult = Type.Object(
  {
    changed: CountsByLocale('texts that differ from what the email held, now written'),
    unchanged: CountsByLocale('texts equal to what the email already held'),
    skipped: CountsByLocale('empty cells (or XLIFF units without a target), which leave the value as it is'),
    lock_version: Type.Integer({
      description: 'The email’s lock_version now: one higher when anything changed (one new version)',
    }),
  },
  { $id: 'TranslationImportResult' },
);
