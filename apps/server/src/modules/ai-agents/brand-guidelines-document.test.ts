import { deflateRawSync, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  documentLimits,
  readBrandGuidelinesDocument,
  tidyText,
  UnreadableDocumentError,
} from './brand-guidelines-document.ts';

const contentTypes = strToU8(
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);
const packageRelations = strToU8(
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
);

function docx(body: string, extra: Record<string, Uint8Array> = {}): Buffer {
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': contentTypes,
      '_rels/.rels': packageRelations,
      'word/document.xml': strToU8(
        `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
      ),
      ...extra,
    }),
  );
}

/** A one-entry zip whose directory declares `declaredSize` for data that inflates to `actual`. */
function zipDeclaring(name: string, actual: Buffer, declaredSize: number): Buffer {
  const data = deflateRawSync(actual, { level: 9 });
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declaredSize, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declaredSize, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(local.length + nameBytes.length + data.length, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

async function refusal(bytes: Buffer, filename: string): Promise<string> {
  const error = await readBrandGuidelinesDocument({ filename, declaredContentType: '', bytes }).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UnreadableDocumentError);
  return (error as Error).message;
}

describe('brand guidelines document bounds', () => {
  it('reads a Word document whose images are not unpacked', async () => {
    const image = new Uint8Array(200_000).map((_, index) => index % 251);
    const read = await readBrandGuidelinesDocument({
      filename: 'guide.docx',
      declaredContentType: '',
      bytes: docx('<w:p><w:r><w:t>Write warmly.</w:t></w:r></w:p>', { 'word/media/image1.png': image }),
    });
    expect(read).toEqual({ kind: 'docx', text: 'Write warmly.' });
  });

  it('stops a zip bomb at the part that inflates past what the archive declares', async () => {
    const bomb = zipDeclaring('word/document.xml', Buffer.alloc(512 * 1024 * 1024, 0x20), 1000);
    expect(await refusal(bomb, 'bomb.docx')).toBe(
      'could not be read: its part word/document.xml unpacks to more than its archive says, as a zip bomb does',
    );
  });

  it('refuses text parts declared beyond the size bound without unpacking them', async () => {
    const honest = zipDeclaring(
      'word/document.xml',
      Buffer.from('<w:document/>'),
      documentLimits.docxXmlBytes + 1,
    );
    expect(await refusal(honest, 'big.docx')).toBe(
      'unpacks to more than 16 MB of text parts, which no brand guidelines need',
    );
  });

  it('refuses too many entries, too deep or too many elements, naming the bound', async () => {
    const entries = Object.fromEntries(
      Array.from({ length: documentLimits.docxEntries + 1 }, (_, index) => [
        `word/media/${index}.bin`,
        new Uint8Array(1),
      ]),
    );
    expect(await refusal(docx('', entries), 'many.docx')).toBe(
      'holds more than 2,000 files inside, which no Word document needs',
    );
    const depth = documentLimits.docxXmlDepth;
    expect(await refusal(docx(`${'<w:p>'.repeat(depth)}${'</w:p>'.repeat(depth)}`), 'deep.docx')).toBe(
      'nests elements more than 256 deep in its part word/document.xml, which no Word document does',
    );
    const fine = await readBrandGuidelinesDocument({
      filename: 'nested.docx',
      declaredContentType: '',
      bytes: docx(`${'<w:p>'.repeat(depth - 4)}<w:r><w:t>Deep</w:t></w:r>${'</w:p>'.repeat(depth - 4)}`),
    });
    expect(fine.text).toBe('Deep');
    expect(await refusal(docx('<w:p/>'.repeat(documentLimits.docxXmlElements)), 'long.docx')).toMatch(
      /^holds more than 250,000 elements in its text parts \(reached in word\/document\.xml\)/,
    );
  });

  it('refuses a PDF whose streams inflate past the bound, and one with too many pages', async () => {
    const stream = deflateSync(Buffer.alloc(documentLimits.pdfInflatedBytes + 1024, 0x20));
    const bomb = Buffer.concat([
      Buffer.from(`%PDF-1.4\n4 0 obj<</Length ${stream.length}/Filter/FlateDecode>>stream\n`),
      stream,
      Buffer.from('\nendstream\nendobj\n%%EOF\n'),
    ]);
    expect(await refusal(bomb, 'bomb.pdf')).toBe(
      'inflates to more than 128 MB, which no brand guidelines need',
    );

    const pdf = await PDFDocument.create();
    for (let page = 0; page <= documentLimits.pdfPages; page += 1) pdf.addPage([10, 10]);
    const pages = Buffer.from(await pdf.save());
    expect(await refusal(pages, 'pages.pdf')).toBe(
      'has 2,001 pages: Letterset reads brand guidelines of at most 2,000',
    );
  });

  it('refuses more text than it keeps', async () => {
    const long = Buffer.from('word '.repeat(documentLimits.textCharacters / 4));
    expect(await refusal(long, 'long.txt')).toMatch(/^holds more than 2,000,000 characters of text/);
  });
});

describe('tidyText', () => {
  /** What it did before, by regular expressions: the reference for what it does. */
  const byRegularExpressions = (raw: string) =>
    raw
      .toWellFormed()
      .replace(/\r\n?/g, '\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the same characters as tidyText
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, '')
      .replace(/[ \t\u00A0]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();

  it('tidies any text as the regular expressions did', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(' ', '\t', '\u00A0', '\n', '\r', 'a', '\u0001', '\uD800', 'é') }),
        (raw) => {
          expect(tidyText(raw)).toBe(byRegularExpressions(raw));
        },
      ),
    );
  });

  it('trims a long run of spaces in time proportional to it', () => {
    // The regular expression took the square of the run: minutes for this one.
    const started = performance.now();
    expect(tidyText(`${' '.repeat(2_000_000)}x`)).toBe('x');
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
