import type { TranslationRow } from '@letterset/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardFormula, readTranslationsCsv, translationsCsv, unguardFormula } from './translation-csv.ts';

const locales = { defaultLocale: 'en-US', targets: ['fr-FR'] };

function row(key: string, sourceText: string, frenchText: string): TranslationRow {
  return {
    key,
    componentLabel: 'Hero',
    fieldLabel: 'Headline',
    format: 'text',
    sourceText,
    targetTexts: { 'fr-FR': frenchText },
  };
}

describe('formula cells in translation CSV', () => {
  it('writes a cell a spreadsheet app would run as a formula as text, with a leading apostrophe', () => {
    const csv = translationsCsv(
      [
        row('a', '=HYPERLINK("https://evil.example","Click")', '+33 1 23 45 67 89'),
        row('b', 'Hello', '@you'),
      ],
      locales,
    );
    const lines = csv.replace('\uFEFF', '').split('\r\n');
    expect(lines[1]).toBe(
      `a,Hero,Headline,"'=HYPERLINK(""https://evil.example"",""Click"")",'+33 1 23 45 67 89`,
    );
    expect(lines[2]).toBe("b,Hero,Headline,Hello,'@you");
  });

  it('reads every text back exactly as it was exported, formulas and apostrophes included', async () => {
    const texts = ['=1+1', '-20% off', "'=kept", "l'été", "''@two", '\tindented', 'plain'];
    const rows = texts.map((text, index) => row(`k${index}`, 'source', text));
    const imported = await readTranslationsCsv(Buffer.from(translationsCsv(rows, locales)), {
      defaultLocale: 'en-US',
      locales: ['en-US', 'fr-FR'],
    });
    expect(imported.entries.map((entry) => entry.texts[0]?.text)).toEqual(texts);
  });

  it('keeps a translator’s own text that starts with such a character', async () => {
    const csv = 'key,fr-FR\r\nk1,-5 % sur tout\r\n';
    const imported = await readTranslationsCsv(Buffer.from(csv), {
      defaultLocale: 'en-US',
      locales: ['en-US', 'fr-FR'],
    });
    expect(imported.entries[0]?.texts[0]?.text).toBe('-5 % sur tout');
  });

  it('unguards what it guards, for any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', ' ') }),
        (text) => {
          expect(unguardFormula(guardFormula(text))).toBe(text);
          expect(guardFormula(text)).not.toMatch(/^[=+\-@\t\r]/);
        },
      ),
    );
  });
});
