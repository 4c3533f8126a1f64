import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../http/errors.ts';
import { csvLimits, parseCsv, readTranslationsCsv } from './translation-csv.ts';
import { readTranslationsXliff, xliffLimits, xliffNamespace } from './translation-xliff.ts';

const locales = { defaultLocale: 'en-US', locales: ['en-US', 'fr-FR'] };
const xliffStart = `<xliff xmlns="${xliffNamespace}" version="2.0" srcLang="en-US" trgLang="fr-FR">`;

/** The 422's errors of a read that must fail. */
async function refusal(read: Promise<unknown>): Promise<Record<string, string[]>> {
  const error = await read.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors;
}

/** The least time of a few runs: a loaded machine slows some runs, never speeds one up. */
async function leastTime(run: () => Promise<unknown>): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  await run().catch(() => undefined); // warms the code up: compiled, not interpreted
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const started = performance.now();
    await run().catch(() => undefined);
    least = Math.min(least, performance.now() - started);
  }
  return least;
}

describe('XLIFF reading bounds', () => {
  it('refuses a 50,000-deep file at the element past the depth bound, without reading on', async () => {
    const deep = `${xliffStart}${'<a>'.repeat(50_000)}${'</a>'.repeat(50_000)}</xliff>`;
    const errors = await refusal(readTranslationsXliff(Buffer.from(deep), locales));
    const [message] = errors.xliff_file ?? [];
    expect(message).toMatch(
      new RegExp(`^nests elements more than ${xliffLimits.depth} deep \\(at line 1, column (\\d+)\\)`),
    );
    // The 64th <a> is the 65th element: the parser stopped right there, not at the end of the file.
    const column = Number(/column (\d+)/.exec(message ?? '')?.[1]);
    expect(column).toBeGreaterThan(xliffStart.length + 3 * (xliffLimits.depth - 1));
    expect(column).toBeLessThanOrEqual(xliffStart.length + 3 * xliffLimits.depth + 1);
  });

  it('reads a file nested exactly to the depth bound', async () => {
    const depth = xliffLimits.depth - 1;
    const nested = `${xliffStart}${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</xliff>`;
    const imported = await readTranslationsXliff(Buffer.from(nested), locales);
    expect(imported.entries).toEqual([]);
  });

  it('refuses more elements, attributes or text than its bounds, naming each bound', async () => {
    const flat = `${xliffStart}${'<a/>'.repeat(xliffLimits.elements)}</xliff>`;
    expect((await refusal(readTranslationsXliff(Buffer.from(flat), locales))).xliff_file?.[0]).toMatch(
      /^has more than 50,000 elements \(at line 1, column \d+\)/,
    );
    const attributes = Array.from({ length: xliffLimits.attributesPerElement + 1 }, (_, i) => `a${i}="x"`);
    const crowded = `${xliffStart}<a ${attributes.join(' ')}/>${'<b/>'.repeat(1000)}</xliff>`;
    expect((await refusal(readTranslationsXliff(Buffer.from(crowded), locales))).xliff_file?.[0]).toMatch(
      new RegExp(`^has an element with more than ${xliffLimits.attributesPerElement} attributes`),
    );
    const wordy = `${xliffStart}${'x'.repeat(xliffLimits.textCharacters + 1)}</xliff>`;
    expect((await refusal(readTranslationsXliff(Buffer.from(wordy), locales))).xliff_file?.[0]).toMatch(
      /^holds more than 4,000,000 characters of text/,
    );
  });

  it('resolves namespaces by their declarations in scope, at any depth', async () => {
    // A prefix declared on an ancestor, redeclared and left again: only the binding in scope counts.
    const file = [
      '<x:xliff xmlns:x="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="fr-FR">',
      '<x:file id="f"><x:unit id="a"><x:segment><x:source>A</x:source><x:target>Un</x:target></x:segment></x:unit>',
      '<other xmlns:x="urn:elsewhere"><x:unit id="ignored"><x:segment><x:source>B</x:source><x:target>Deux</x:target></x:segment></x:unit></other>',
      '<x:unit id="c"><x:segment><x:source>C</x:source><x:target>Trois</x:target></x:segment></x:unit>',
      '</x:file></x:xliff>',
    ].join('');
    const imported = await readTranslationsXliff(Buffer.from(file), locales);
    expect(imported.entries.map((entry) => [entry.key, entry.texts[0]?.text])).toEqual([
      ['a', 'Un'],
      ['c', 'Trois'],
    ]);
    const unbound = `${xliffStart}<y:a/></xliff>`;
    expect((await refusal(readTranslationsXliff(Buffer.from(unbound), locales))).xliff_file?.[0]).toMatch(
      /^is not well-formed XML: unbound namespace prefix: "y" \(at line 1, column \d+\)$/,
    );
  });

  it('lists a unit’s distinct inline tags once each, up to ten, however many there are', async () => {
    const tags = Array.from({ length: 20_000 }, (_, i) => `<t${i}/>`).join('');
    const file = `${xliffStart}<file id="f"><unit id="k"><segment><source>${tags}</source></segment></unit></file></xliff>`;
    const errors = await refusal(readTranslationsXliff(Buffer.from(file), locales));
    expect(errors['unit k (line 1)']).toHaveLength(10);
  });

  it('takes time in proportion to the nesting it reads: four times the elements, not sixteen times the time', async () => {
    // A prefix declared at the root and elements nested under it: what made saxes's namespace mode
    // walk every open element for each new one. Runs nested as deep as the bound allows, and one
    // nesting as deep as the file (read up to the bound, or wholly were there none).
    const file = (body: string) =>
      Buffer.from(
        `<x:xliff xmlns:x="${xliffNamespace}" version="2.0" srcLang="en-US" trgLang="fr-FR">${body}</x:xliff>`,
      );
    const runs = (count: number) => file(`${'<x:a>'.repeat(60)}${'</x:a>'.repeat(60)}`.repeat(count));
    const deep = (depth: number) => file(`${'<x:a>'.repeat(depth)}${'</x:a>'.repeat(depth)}`);
    for (const [small, large] of [
      [runs(50), runs(200)],
      [deep(5_000), deep(20_000)],
    ] as const) {
      const smallTime = await leastTime(() => readTranslationsXliff(small, locales));
      const largeTime = await leastTime(() => readTranslationsXliff(large, locales));
      // Linear is about 4; the square would be 16. Generous, as timings on a shared machine wander.
      expect(largeTime / Math.max(smallTime, 2)).toBeLessThan(10);
    }
  });
});

describe('CSV reading', () => {
  const cell = fc.string({
    unit: fc.constantFrom('a', 'é', '"', ',', ';', '\t', '\r', '\n', ' ', '🌞', "'"),
  });
  const records = fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 });

  it('reads back whatever a CSV writer wrote, for any cells, delimiter and line ends', async () => {
    await fc.assert(
      fc.asyncProperty(
        records,
        fc.constantFrom(',', ';', '\t'),
        fc.constantFrom('unix', 'windows', 'mac') as fc.Arbitrary<'unix' | 'windows' | 'mac'>,
        async (rows, delimiter, recordDelimiter) => {
          // A row of one empty cell is an empty line, which readers skip.
          const written = rows.filter((row) => !(row.length === 1 && row[0] === ''));
          const text = stringify(written, {
            delimiter,
            record_delimiter: recordDelimiter,
            quoted_match: /[\r\n]/,
          });
          expect(await parseCsv(text, delimiter)).toEqual(written);
          // The same records as csv-parse, the reader Letterset used before.
          expect(await parseCsv(text, delimiter)).toEqual(
            parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true }),
          );
        },
      ),
    );
  });

  it('refuses rows, cells and cell sizes beyond its bounds, at the line that crosses them', async () => {
    const header = 'key,fr-FR\n';
    const many = `${header}${'k,v\n'.repeat(csvLimits.rows + 10)}`;
    expect((await refusal(readTranslationsCsv(Buffer.from(many), locales))).csv_file).toEqual([
      'has more than 50,000 rows below the header (at line 50002): Letterset stopped reading there',
    ]);
    const wide = `${header}${','.repeat(1_000_000)}\n`;
    expect((await refusal(readTranslationsCsv(Buffer.from(wide), locales))).csv_file).toEqual([
      `has a row of more than ${csvLimits.columns} cells (at line 2): Letterset stopped reading there`,
    ]);
    const long = `${header}k,"${'""'.repeat(csvLimits.cellCharacters + 1)}"\nk2,v\n`;
    expect((await refusal(readTranslationsCsv(Buffer.from(long), locales))).csv_file).toEqual([
      'has a cell of more than 100,001 characters (at line 2): Letterset stopped reading there',
    ]);
    const unquotedLong = `${header}k,${'x'.repeat(csvLimits.cellCharacters + 1)}\n`;
    expect((await refusal(readTranslationsCsv(Buffer.from(unquotedLong), locales))).csv_file?.[0]).toMatch(
      /^has a cell of more than 100,001 characters \(at line 2\)/,
    );
  });

  it('refuses malformed quoting, saying where', async () => {
    expect(
      (await refusal(readTranslationsCsv(Buffer.from('key,fr-FR\nk,"open\n\n'), locales))).csv_file,
    ).toEqual(['is not valid CSV: Quote Not Closed: a quoted cell is not closed at line 2']);
    expect(
      (await refusal(readTranslationsCsv(Buffer.from('key,fr-FR\nk,a"b\n'), locales))).csv_file?.[0],
    ).toMatch(/^is not valid CSV: Invalid Opening Quote.* at line 2$/);
    expect(
      (await refusal(readTranslationsCsv(Buffer.from('key,fr-FR\nk,"a"b\n'), locales))).csv_file?.[0],
    ).toMatch(/^is not valid CSV: Invalid Closing Quote.* at line 2$/);
  });

  it('takes time in proportion to the file: four times the rows, not sixteen times the time', async () => {
    const file = (rows: number) =>
      Buffer.from(`key,fr-FR\n${Array.from({ length: rows }, (_, i) => `k${i},"a ""b"", c\nd"`).join('\n')}`);
    const small = file(10_000);
    const large = file(40_000);
    const smallTime = await leastTime(() => readTranslationsCsv(small, locales));
    const largeTime = await leastTime(() => readTranslationsCsv(large, locales));
    expect(largeTime / Math.max(smallTime, 2)).toBeLessThan(10);
  });
});
