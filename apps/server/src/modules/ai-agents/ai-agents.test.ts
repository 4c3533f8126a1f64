import { and, eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, PDFHexString, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiAgents, emails } from '../../db/schema.ts';
import {
  createTestEmail,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { aiAgentNamedBy, describeAgentForPrompt, loadAiAgent } from './ai-agent-prompt.ts';

/** A real PDF with one line of text per page (none: a page without text, like a scan). */
async function pdfWith(lines: string[], options: { encrypted?: boolean } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  if (lines.length === 0) pdf.addPage();
  for (const line of lines) pdf.addPage().drawText(line, { x: 50, y: 700, font, size: 12 });
  if (options.encrypted) {
    // A standard security handler whose user password is not empty: readers must ask for it.
    pdf.context.trailerInfo.Encrypt = pdf.context.register(
      pdf.context.obj({
        Filter: 'Standard',
        V: 1,
        R: 2,
        P: -4,
        O: PDFHexString.of('11'.repeat(32)),
        U: PDFHexString.of('22'.repeat(32)),
      }),
    );
    pdf.context.trailerInfo.ID = pdf.context.obj([
      PDFHexString.of('33'.repeat(16)),
      PDFHexString.of('33'.repeat(16)),
    ]);
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** The smallest DOCX Word and mammoth read: the content types, the package relation, the document. */
function docxWith(paragraphs: string[]): Buffer {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join('');
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
          '</Types>',
      ),
      '_rels/.rels': strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
          '</Relationships>',
      ),
      'word/document.xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
          `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
      ),
    }),
  );
}

function form(file: { bytes: Buffer | string; filename: string; type: string }) {
  const body = new FormData();
  const bytes = typeof file.bytes === 'string' ? Buffer.from(file.bytes, 'utf8') : file.bytes;
  body.append('file', new Blob([new Uint8Array(bytes)], { type: file.type }), file.filename);
  return body;
}

describe('AI agents', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}/ai_agents`;
  });
  afterAll(() => app.close());

  const request = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers = admin,
  ) => app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const upload = (id: number, body: FormData, headers = admin) =>
    app.inject({ method: 'POST', url: `${base}/${id}/brand_guidelines_doc`, headers, payload: body });
  let named = 0;
  const newAgent = async (fields: object = {}) => {
    const response = await request('POST', base, { name: `Agent ${++named}`, ...fields });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { id: number; name: string };
  };
  const storedFile = async (id: number) => {
    const [row] = await app.services.database.db
      .select({ key: aiAgents.brandGuidelinesStorageKey })
      .from(aiAgents)
      .where(eq(aiAgents.id, id));
    return row?.key ? app.services.storage.get(row.key) : null;
  };

  it('creates, reads, lists, updates and deletes an agent', async () => {
    const body = {
      name: 'Acme voice',
      company_name: 'Acme Travel',
      company_overview: 'City breaks across Europe for couples and young families.',
      tone: 'Professional but friendly',
      guidelines: 'Always include a call-to-action. Avoid using jargon.',
      brand_guidelines_document_name: null,
    };
    const created = await request('POST', base, body);
    expect(created.statusCode, created.body).toBe(200);
    const agent = created.json();
    expect(agent).toEqual({
      id: expect.any(Number),
      ...body,
      brand_guidelines_document: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
    });
    expect((await request('GET', `${base}/${agent.id}`)).json()).toEqual(agent);
    const list = (await request('GET', base)).json();
    expect(list.results.map((item: { id: number }) => item.id)).toContain(agent.id);
    expect(list.pagination).toMatchObject({ page: 1, per: 10 });

    const updated = await request('PATCH', `${base}/${agent.id}`, { tone: 'Playful', guidelines: null });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ ...body, tone: 'Playful', guidelines: null });

    expect((await request('DELETE', `${base}/${agent.id}`)).statusCode).toBe(204);
    expect((await request('GET', `${base}/${agent.id}`)).statusCode).toBe(404);
  });

  it('needs only a name, and leaves the other fields null', async () => {
    const response = await request('POST', base, { name: 'Bare agent' });
    expect(response.json()).toMatchObject({
      name: 'Bare agent',
      company_name: null,
      company_overview: null,
      tone: null,
      guidelines: null,
      brand_guidelines_document_name: null,
      brand_guidelines_document: null,
    });
  });

  it('answers 422 naming each field that is missing, blank, too long or unknown', async () => {
    const missing = await request('POST', base, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({
      code: 'validation_failed',
      message: 'Failed to save',
      errors: { name: ['is required'] },
    });

    const blank = await request('POST', base, { name: '', tone: '', guidelines: '' });
    expect(blank.json().errors).toEqual({
      name: ["can't be blank"],
      tone: ["can't be blank"],
      guidelines: ["can't be blank"],
    });

    const long = await request('POST', base, {
      name: 'n'.repeat(201),
      company_name: 'c'.repeat(201),
      company_overview: 'o'.repeat(10_001),
      tone: 't'.repeat(2_001),
      guidelines: 'g'.repeat(10_001),
      brand_guidelines_document_name: 'd'.repeat(201),
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors).toEqual({
      name: ['must be at most 200 characters'],
      company_name: ['must be at most 200 characters'],
      company_overview: ['must be at most 10000 characters'],
      tone: ['must be at most 2000 characters'],
      guidelines: ['must be at most 10000 characters'],
      brand_guidelines_document_name: ['must be at most 200 characters'],
    });

    const unknown = await request('POST', base, { name: 'X', voice: 'loud' });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['voice']);

    const agent = await newAgent();
    const nullName = await request('PATCH', `${base}/${agent.id}`, { name: null });
    expect(nullName.statusCode).toBe(422);
    expect(Object.keys(nullName.json().errors)).toEqual(['name']);
  });

  it('keeps names unique in the workspace, case aside', async () => {
    const first = await newAgent();
    const clash = await request('POST', base, { name: first.name.toUpperCase() });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors).toEqual({ name: ['is already taken by another AI agent'] });
    const second = await newAgent();
    expect((await request('PATCH', `${base}/${second.id}`, { name: first.name })).statusCode).toBe(422);
    expect((await request('PATCH', `${base}/${second.id}`, { name: second.name })).statusCode).toBe(200);
  });

  it('lets a Viewer read agents but not create, change or delete them', async () => {
    const agent = await newAgent();
    const viewer = await signInAs(app, await createTestUser(app, organization, { role: 'Viewer' }));
    expect((await request('GET', base, undefined, viewer)).statusCode).toBe(200);
    expect((await request('GET', `${base}/${agent.id}`, undefined, viewer)).statusCode).toBe(200);
    for (const [method, url, body, key] of [
      ['POST', base, { name: 'Mine' }, 'create_ai_agents'],
      ['PATCH', `${base}/${agent.id}`, { name: 'Mine' }, 'update_ai_agents'],
      ['DELETE', `${base}/${agent.id}`, undefined, 'delete_ai_agents'],
      ['DELETE', `${base}/${agent.id}/brand_guidelines_doc`, undefined, 'update_ai_agents'],
    ] as const) {
      const response = await request(method, url, body, viewer);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().message).toBe(`You need the ${key} permission to do this`);
    }
    const refused = await upload(
      agent.id,
      form({ bytes: '# Voice', filename: 'voice.md', type: 'text/markdown' }),
      viewer,
    );
    expect(refused.statusCode).toBe(403);
  });

  it('answers 404 to another organization', async () => {
    const agent = await newAgent();
    const other = await createTestOrganization(app);
    const outsider = await signInAs(app, other.admin);
    const theirBase = `/api/v1/workspaces/${other.workspaceId}/ai_agents`;
    expect((await request('GET', `${theirBase}/${agent.id}`, undefined, outsider)).statusCode).toBe(404);
    expect((await request('PATCH', `${theirBase}/${agent.id}`, { tone: 'x' }, outsider)).statusCode).toBe(
      404,
    );
    expect((await request('GET', base, undefined, outsider)).statusCode).toBe(404);
    await expect(loadAiAgent(app.services.database.db, other.workspaceId, agent.id)).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('checks an ai_agent_id a request names: null for none, 422 for another workspace’s', async () => {
    const agent = await newAgent({ tone: 'Calm' });
    const db = app.services.database.db;
    expect(await aiAgentNamedBy(db, organization.workspaceId, null)).toBeNull();
    expect(await aiAgentNamedBy(db, organization.workspaceId, agent.id)).toMatchObject({ tone: 'Calm' });
    const other = await createTestOrganization(app);
    await expect(aiAgentNamedBy(db, other.workspaceId, agent.id)).rejects.toMatchObject({
      statusCode: 422,
      errors: { ai_agent_id: ['is not an AI agent of this workspace'] },
    });
  });

  it('reads a PDF: its text is kept for prompts and the file can be downloaded', async () => {
    const agent = await newAgent({ company_name: 'Acme Travel' });
    const pdf = await pdfWith(['Always write like a friendly lighthouse keeper.', 'Never promise sunshine.']);
    const response = await upload(
      agent.id,
      // The client's type is wrong on purpose: the bytes decide.
      form({ bytes: pdf, filename: 'Acme Brand Book.pdf', type: 'application/octet-stream' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const uploaded = response.json();
    expect(uploaded.brand_guidelines_document_name).toBe('Acme Brand Book');
    expect(uploaded.brand_guidelines_document).toEqual({
      filename: 'Acme Brand Book.pdf',
      content_type: 'application/pdf',
      size: pdf.length,
      characters: expect.any(Number),
      url: `http://localhost:3000${base}/${agent.id}/brand_guidelines_doc`,
    });
    expect(uploaded.brand_guidelines_document.characters).toBeGreaterThan(40);
    expect((await request('GET', `${base}/${agent.id}`)).json()).toEqual(uploaded);

    const prompt = describeAgentForPrompt(
      await loadAiAgent(app.services.database.db, organization.workspaceId, agent.id),
    );
    expect(prompt).toContain('Company: Acme Travel');
    expect(prompt).toContain('friendly lighthouse keeper');
    expect(prompt).toContain('Never promise sunshine');
    expect(prompt).toContain('“Acme Brand Book”');

    const download = await request('GET', new URL(uploaded.brand_guidelines_document.url).pathname);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Acme Brand Book.pdf"; filename*=UTF-8''Acme%20Brand%20Book.pdf`,
    );
    expect(download.rawPayload.equals(pdf)).toBe(true);
  });

  it('reads a Word document (.docx)', async () => {
    const agent = await newAgent();
    const response = await upload(
      agent.id,
      form({
        bytes: docxWith(['Say hello like a harbour pilot.', 'Sign off with the crew’s names.']),
        filename: 'Voice guide.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().brand_guidelines_document).toMatchObject({
      filename: 'Voice guide.docx',
      content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const agentContext = await loadAiAgent(app.services.database.db, organization.workspaceId, agent.id);
    expect(agentContext.brandGuidelinesText).toBe(
      'Say hello like a harbour pilot.\n\nSign off with the crew’s names.',
    );
    expect(describeAgentForPrompt(agentContext)).toContain('harbour pilot');
  });

  it('reads Markdown and plain text as UTF-8, and counts its characters', async () => {
    const agent = await newAgent({ brand_guidelines_document_name: 'House style' });
    const markdown = '\uFEFF# Voice\r\n\r\n\r\n\r\nWrite with **warmth** — and café-level calm.   \r\n';
    const response = await upload(
      agent.id,
      form({ bytes: markdown, filename: 'voice.md', type: 'text/markdown' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const uploaded = response.json();
    // A name given beforehand is kept.
    expect(uploaded.brand_guidelines_document_name).toBe('House style');
    const text = '# Voice\n\nWrite with **warmth** — and café-level calm.';
    expect(uploaded.brand_guidelines_document).toMatchObject({
      filename: 'voice.md',
      content_type: 'text/markdown; charset=utf-8',
      characters: text.length,
    });
    expect(
      (await loadAiAgent(app.services.database.db, organization.workspaceId, agent.id)).brandGuidelinesText,
    ).toBe(text);

    const plain = await upload(
      agent.id,
      form({ bytes: 'Be brief.', filename: 'notes.txt', type: 'text/plain' }),
    );
    expect(plain.json().brand_guidelines_document).toMatchObject({
      filename: 'notes.txt',
      content_type: 'text/plain; charset=utf-8',
      characters: 9,
    });
  });

  it('replaces the previous document, deleting its file', async () => {
    const agent = await newAgent();
    await upload(agent.id, form({ bytes: 'First version.', filename: 'first.md', type: 'text/markdown' }));
    const [before] = await app.services.database.db
      .select({ key: aiAgents.brandGuidelinesStorageKey })
      .from(aiAgents)
      .where(eq(aiAgents.id, agent.id));
    const replaced = await upload(
      agent.id,
      form({ bytes: docxWith(['Second version.']), filename: 'second.docx', type: 'application/zip' }),
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      // The name came from the first file; it stays until someone changes it.
      brand_guidelines_document_name: 'first',
      brand_guidelines_document: { filename: 'second.docx' },
    });
    expect(before?.key).toBeTruthy();
    expect(await app.services.storage.get(before?.key ?? '')).toBeNull();
    expect(await storedFile(agent.id)).not.toBeNull();
    const context = await loadAiAgent(app.services.database.db, organization.workspaceId, agent.id);
    expect(context.brandGuidelinesText).toBe('Second version.');
  });

  it('removes a document with its text and its name', async () => {
    const agent = await newAgent();
    await upload(agent.id, form({ bytes: 'Be kind.', filename: 'kindness.txt', type: 'text/plain' }));
    const [row] = await app.services.database.db
      .select({ key: aiAgents.brandGuidelinesStorageKey })
      .from(aiAgents)
      .where(eq(aiAgents.id, agent.id));
    const removed = await request('DELETE', `${base}/${agent.id}/brand_guidelines_doc`);
    expect(removed.statusCode).toBe(204);
    expect((await request('GET', `${base}/${agent.id}`)).json()).toMatchObject({
      brand_guidelines_document_name: null,
      brand_guidelines_document: null,
    });
    expect(await app.services.storage.get(row?.key ?? '')).toBeNull();
    const context = await loadAiAgent(app.services.database.db, organization.workspaceId, agent.id);
    expect(context.brandGuidelinesText).toBeNull();
    // Nothing left to remove is not an error; nothing to download is a 404.
    expect((await request('DELETE', `${base}/${agent.id}/brand_guidelines_doc`)).statusCode).toBe(204);
    const download = await request('GET', `${base}/${agent.id}/brand_guidelines_doc`);
    expect(download.statusCode).toBe(404);
    expect(download.json().message).toBe('This AI agent has no brand guidelines document');
  });

  it('takes a document over the image limit but within its own 10 MB', async () => {
    const agent = await newAgent();
    // 5.7 MB of UTF-8 (three bytes a character), under the 2,000,000 characters a document may hold.
    const words = '語'.repeat(1_900_000);
    const response = await upload(
      agent.id,
      form({ bytes: Buffer.from(words), filename: 'voice.txt', type: 'text/plain' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().brand_guidelines_document_name).toBe('voice');
  });

  it('refuses a file over 10 MB, naming the limit', async () => {
    const agent = await newAgent();
    const response = await upload(
      agent.id,
      form({ bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 'a'), filename: 'huge.txt', type: 'text/plain' }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      file: ['is too large: brand guidelines documents can be at most 10 MB'],
    });
    expect((await request('GET', `${base}/${agent.id}`)).json().brand_guidelines_document).toBeNull();
  });

  it.each([
    [
      'an image, whatever its name',
      { bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), filename: 'logo.png' },
      'must be a PDF, a Word document (.docx), Markdown (.md) or plain text (.txt)',
    ],
    [
      'text under a name that is no text file’s',
      { bytes: Buffer.from('plain words'), filename: 'guide.pdf' },
      'must be a PDF, a Word document (.docx), Markdown (.md) or plain text (.txt)',
    ],
    [
      'a zip that is not a Word document',
      { bytes: Buffer.from(zipSync({ 'notes.txt': strToU8('hello') })), filename: 'guide.docx' },
      'is a zip archive, not a Word document: it must be a PDF, a Word document (.docx), Markdown (.md) or plain text (.txt)',
    ],
    [
      'an older Word document',
      { bytes: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), filename: 'guide.doc' },
      'is an older Word document (.doc) or a password-protected one: save it as a .docx without a password and upload that',
    ],
    [
      'text that is not UTF-8',
      { bytes: Buffer.from('caf\xe9 cr\xe8me', 'latin1'), filename: 'latin1.txt' },
      'is not UTF-8 text: save it with the UTF-8 encoding and upload it again',
    ],
    [
      'an empty text file',
      { bytes: Buffer.from(' \n\n '), filename: 'empty.md' },
      'has no text: the Markdown file is empty',
    ],
    [
      'a damaged PDF',
      { bytes: Buffer.from('%PDF-1.7\nnot really a PDF\n'), filename: 'broken.pdf' },
      'could not be read as a PDF: it may be damaged',
    ],
  ])('refuses %s with a 422 saying why', async (_what, file, message) => {
    const agent = await newAgent();
    const response = await upload(agent.id, form({ ...file, type: 'application/octet-stream' }));
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({
      code: 'validation_failed',
      message: 'Failed to save',
      errors: { file: [message] },
    });
    expect(await storedFile(agent.id)).toBeNull();
  });

  it('refuses a PDF protected by a password, and one with no text', async () => {
    const agent = await newAgent();
    const encrypted = await upload(
      agent.id,
      form({
        bytes: await pdfWith(['Secret'], { encrypted: true }),
        filename: 'locked.pdf',
        type: 'application/pdf',
      }),
    );
    expect(encrypted.json().errors).toEqual({
      file: ['is a PDF protected by a password: upload a copy without the password'],
    });
    const scanned = await upload(
      agent.id,
      form({ bytes: await pdfWith([]), filename: 'scan.pdf', type: 'application/pdf' }),
    );
    expect(scanned.statusCode).toBe(422);
    expect(scanned.json().errors.file[0]).toMatch(/^has no text to read: it may be scanned pages/);
  });

  it('answers 422 when no file is sent', async () => {
    const agent = await newAgent();
    const body = new FormData();
    body.append('note', 'no file here');
    const response = await upload(agent.id, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toMatchObject({ file: ['is required'] });
  });

  it('deletes its document with it, and the emails that used it lose it', async () => {
    const agent = await newAgent();
    await upload(agent.id, form({ bytes: 'Be bold.', filename: 'bold.md', type: 'text/markdown' }));
    const [row] = await app.services.database.db
      .select({ key: aiAgents.brandGuidelinesStorageKey })
      .from(aiAgents)
      .where(eq(aiAgents.id, agent.id));
    const emailId = await createTestEmail(app, organization, { name: 'Autumn sale', content: {} });
    await app.services.database.db.update(emails).set({ aiAgentId: agent.id }).where(eq(emails.id, emailId));
    const [before] = await app.services.database.db.select().from(emails).where(eq(emails.id, emailId));

    expect((await request('DELETE', `${base}/${agent.id}`)).statusCode).toBe(204);
    const [after] = await app.services.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.id, emailId), eq(emails.workspaceId, organization.workspaceId)));
    expect(after?.aiAgentId).toBeNull();
    expect(after?.updatedAt).toEqual(before?.updatedAt);
    expect(await app.services.storage.get(row?.key ?? '')).toBeNull();
  });

  it('does not serve the document as a public file', async () => {
    const agent = await newAgent();
    await upload(agent.id, form({ bytes: 'Private words.', filename: 'private.txt', type: 'text/plain' }));
    const [row] = await app.services.database.db
      .select({ key: aiAgents.brandGuidelinesStorageKey })
      .from(aiAgents)
      .where(eq(aiAgents.id, agent.id));
    const response = await app.inject({ method: 'GET', url: `/files/${row?.key}` });
    expect(response.statusCode).toBe(404);
  });
});
