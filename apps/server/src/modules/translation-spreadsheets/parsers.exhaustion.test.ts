import { randomUUID } from 'node:crypto';
import { deflateRawSync, constants as zlibConstants } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestEmail,
  createTestOrganization,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { whileCheckingHealth } from '../../test/health-checks.ts';
import { xliffNamespace } from './translation-xliff.ts';

const megabyte = 1024 * 1024;
/** The largest translation file an upload takes (the default upload limit is 5 MB), less room. */
const nearlyFiveMegabytes = 5 * megabyte - 4096;
const xliffStart = `<xliff xmlns="${xliffNamespace}" version="2.0" srcLang="en-US" trgLang="fr-FR">`;

/** Text repeating `unit` to `size` characters, between `start` and `end`. */
function filled(start: string, unit: string, end: string, size = nearlyFiveMegabytes): string {
  return `${start}${unit.repeat(Math.floor((size - start.length - end.length) / unit.length))}${end}`;
}

/**
 * A gigabyte of spaces as raw deflate data (about a megabyte), made without holding the gigabyte:
 * a megabyte's blocks, flushed to a byte boundary, repeated, then a final empty block.
 */
function deflatedGigabyte(): Buffer {
  const megabyteBlocks = deflateRawSync(Buffer.alloc(megabyte, 0x20), {
    level: 9,
    finishFlush: zlibConstants.Z_SYNC_FLUSH,
  });
  return Buffer.concat([
    ...Array.from({ length: 1024 }, () => megabyteBlocks),
    deflateRawSync(Buffer.alloc(0)),
  ]);
}

/** A zip holding one part whose directory says it is 1,000 bytes while it inflates to a gigabyte. */
function lyingZipBomb(partName: string): Buffer {
  const data = deflatedGigabyte();
  const name = Buffer.from(partName);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(1000, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(1000, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

/** A Word document whose body nests paragraphs `depth` deep (a few kilobytes once zipped). */
function deepDocx(depth: number): Buffer {
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
      ),
      'word/document.xml': strToU8(
        `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p>'.repeat(depth)}${'</w:p>'.repeat(depth)}</w:body></w:document>`,
      ),
    }),
  );
}

/** A PDF with one content stream that inflates to a gigabyte (about a megabyte as stored). */
function pdfStreamBomb(): Buffer {
  // A zlib header, the deflate data, and a checksum nobody reaches.
  const stream = Buffer.concat([Buffer.from([0x78, 0xda]), deflatedGigabyte(), Buffer.alloc(4)]);
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/Contents 4 0 R>>endobj\n4 0 obj<</Length ${stream.length}/Filter/FlateDecode>>stream\n`,
    ),
    stream,
    Buffer.from('\nendstream\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
  ]);
}

/**
 * A hostile file costs its own request little and nobody else anything: on a listening server,
 * each upload is refused with a 422 naming the bound within a second, while `/healthz`, asked over
 * HTTP all the while, answers every time in under 100 ms.
 */
describe('hostile files on a listening server', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let session: Record<string, string>;
  let url: string;
  let emailId: number;
  let agentId: number;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    session = await signInAs(app, organization.admin);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    emailId = await createTestEmail(app, organization, {
      name: 'Hostile translations',
      content: {
        subject: { branch_content: { null_branch: { 'en-US': 'Hello' } } },
        preheader: { branch_content: { null_branch: { 'en-US': '' } } },
        container_component_instance: { id: randomUUID(), component_id: 1, field_values: {} },
        component_instances: [],
      },
    });
    const agent = await fetch(`${url}/api/v1/workspaces/${organization.workspaceId}/ai_agents`, {
      method: 'POST',
      headers: { ...session, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Hostile documents' }),
    });
    expect(agent.status).toBe(200);
    agentId = ((await agent.json()) as { id: number }).id;
  }, 120_000);
  afterAll(() => app.close());

  function form(field: string, bytes: Buffer | string, filename: string) {
    const body = new FormData();
    body.append(field, new Blob([new Uint8Array(Buffer.from(bytes))]), filename);
    return body;
  }

  function upload(path: string, body: FormData) {
    return fetch(`${url}/api/v1/workspaces/${organization.workspaceId}${path}`, {
      method: 'POST',
      headers: { ...session, origin: url },
      body,
    });
  }

  const cases: {
    name: string;
    path: () => string;
    field: string;
    filename: string;
    file: () => Buffer | string;
    /** What the 422 says on the file's field. */
    error: RegExp;
  }[] = [
    {
      name: 'XLIFF nested 50,000 deep (350 KB)',
      path: () => `/emails/${emailId}/translation_spreadsheets?format=xliff`,
      field: 'xliff_file',
      filename: 'deep.xlf',
      file: () => `${xliffStart}${'<a>'.repeat(50_000)}${'</a>'.repeat(50_000)}</xliff>`,
      error: /^nests elements more than 64 deep/,
    },
    {
      name: 'XLIFF nested 5 MB deep',
      path: () => `/emails/${emailId}/translation_spreadsheets?format=xliff`,
      field: 'xliff_file',
      filename: 'deeper.xlf',
      file: () => filled(xliffStart, '<a>', ''),
      error: /^nests elements more than 64 deep/,
    },
    {
      name: 'XLIFF of 5 MB of elements',
      path: () => `/emails/${emailId}/translation_spreadsheets?format=xliff`,
      field: 'xliff_file',
      filename: 'wide.xlf',
      file: () => filled(xliffStart, '<a/>', '</xliff>'),
      error: /^has more than 50,000 elements/,
    },
    {
      name: 'CSV of 5 MB of rows',
      path: () => `/emails/${emailId}/translation_spreadsheets`,
      field: 'csv_file',
      filename: 'rows.csv',
      file: () => filled('key,fr-FR\n', 'k,v\n', ''),
      error: /^has more than 50,000 rows below the header/,
    },
    {
      name: 'CSV of one 5 MB row of empty cells',
      path: () => `/emails/${emailId}/translation_spreadsheets`,
      field: 'csv_file',
      filename: 'cells.csv',
      file: () => filled('key,fr-FR\n', ',', '\n'),
      error: /^has a row of more than 256 cells/,
    },
    {
      name: 'CSV of one 5 MB quoted cell',
      path: () => `/emails/${emailId}/translation_spreadsheets`,
      field: 'csv_file',
      filename: 'cell.csv',
      file: () => filled('key,fr-FR\nk,"', '""', '"\n'),
      error: /^has a cell of more than 100,001 characters/,
    },
    {
      name: 'DOCX whose document inflates to a gigabyte while its directory says 1,000 bytes',
      path: () => `/ai_agents/${agentId}/brand_guidelines_doc`,
      field: 'file',
      filename: 'bomb.docx',
      file: () => lyingZipBomb('word/document.xml'),
      error: /unpacks to more than its archive says, as a zip bomb does$/,
    },
    {
      name: 'DOCX nested 500,000 deep',
      path: () => `/ai_agents/${agentId}/brand_guidelines_doc`,
      field: 'file',
      filename: 'deep.docx',
      file: () => deepDocx(500_000),
      error: /^nests elements more than 256 deep in its part word\/document\.xml/,
    },
    {
      name: 'PDF whose content stream inflates to a gigabyte',
      path: () => `/ai_agents/${agentId}/brand_guidelines_doc`,
      field: 'file',
      filename: 'bomb.pdf',
      file: pdfStreamBomb,
      error: /^inflates to more than 128 MB/,
    },
    {
      name: 'Markdown of 5 MB of spaces before one letter',
      path: () => `/ai_agents/${agentId}/brand_guidelines_doc`,
      field: 'file',
      filename: 'spaces.md',
      file: () => `${' '.repeat(nearlyFiveMegabytes)}x`,
      // Trailing spaces were trimmed by a regular expression that took the square of their run.
      error: /^holds more than 2,000,000 characters of text/,
    },
  ];

  for (const hostile of cases) {
    // Wall-clock bounds on a shared machine: a run starved of CPU by other processes is tried again
    // (twice at most). A parser that blocks or takes the square of its input fails every try.
    it(`${hostile.name}: 422 naming the bound within a second, /healthz free`, { retry: 2 }, async () => {
      // The file is made before the clock starts: only the server's work is timed.
      const body = form(hostile.field, hostile.file(), hostile.filename);
      const run = await whileCheckingHealth(url, async () => {
        const response = await upload(hostile.path(), body);
        return {
          status: response.status,
          body: (await response.json()) as { errors?: Record<string, string[]> },
        };
      });
      console.info(
        `${hostile.name}: ${run.result.status} in ${run.elapsedMs.toFixed(0)} ms; healthz: ${run.roundTrips.length} checks, worst ${Math.max(...run.roundTrips).toFixed(1)} ms`,
      );
      expect(run.result.status, JSON.stringify(run.result.body)).toBe(422);
      expect(run.result.body.errors?.[hostile.field]?.[0]).toMatch(hostile.error);
      expect(run.elapsedMs).toBeLessThan(1000);
      expect(run.roundTrips.length).toBeGreaterThan(0);
      expect(Math.max(...run.roundTrips)).toBeLessThan(100);
    });
  }
});
