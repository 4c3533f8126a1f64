import { setImmediate } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createInflate, inflateRaw, constants as zlibConstants } from 'node:zlib';
import { zipSync } from 'fflate';
import { SaxesParser } from 'saxes';
import { extractText, getDocumentProxy } from 'unpdf';

const inflateRawLimited = promisify(inflateRaw);

/** The kinds of brand guidelines document Letterset reads, by the extension it stores them under. */
export const documentKinds = {
  pdf: { contentType: 'application/pdf', label: 'PDF' },
  docx: {
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    label: 'Word document',
  },
  md: { contentType: 'text/markdown; charset=utf-8', label: 'Markdown file' },
  txt: { contentType: 'text/plain; charset=utf-8', label: 'text file' },
} as const;
export type DocumentKind = keyof typeof documentKinds;

export interface ReadDocument {
  kind: DocumentKind;
  /** The document's text, tidied: one blank line at most between paragraphs, no control characters. */
  text: string;
}

/** Why a document cannot be used, in words for the person who uploaded it (a 422 on `file`). */
export class UnreadableDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableDocumentError';
  }
}

const supported = 'must be a PDF, a Word document (.docx), Markdown (.md) or plain text (.txt)';
const textExtensions = new Set(['txt', 'text', 'md', 'markdown', 'mdown', 'mkd']);
const markdownExtensions = new Set(['md', 'markdown', 'mdown', 'mkd']);
const textTypes = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);
/**
 * How much of a document Letterset reads: far beyond any brand guidelines, and small enough that a
 * hostile file (a zip bomb, a document nested fifty thousand deep) is refused within a second,
 * before the part that would take long is reached.
 */
export const documentLimits = {
  /** Files inside a DOCX (a zip archive): a few dozen in real documents. */
  docxEntries: 2_000,
  /**
   * Bytes the DOCX's text parts (its XML) unpack to, all together. Checked while inflating, so a
   * zip bomb is stopped at this size whatever its directory claims; images are not unpacked.
   */
  docxXmlBytes: 16 * 1024 * 1024,
  /**
   * Elements in a DOCX's XML, all parts together: about four per line of text, so some hundreds of
   * pages. Word's reader spends some microseconds on each; this keeps a document to about a second.
   */
  docxXmlElements: 250_000,
  /** Elements inside one another in a DOCX's XML (tables in tables included). */
  docxXmlDepth: 256,
  /** Pages of a PDF. */
  pdfPages: 2_000,
  /** Bytes a PDF's compressed streams inflate to, all together (stopped at this size while inflating). */
  pdfInflatedBytes: 128 * 1024 * 1024,
  /** Characters of text a document may hold: what Letterset keeps and gives AI features. */
  textCharacters: 2_000_000,
} as const;

/**
 * Recognises a brand guidelines document from its bytes (PDF and DOCX by their signatures; text
 * by its name, as text has none) and extracts its text. The client's content type is a hint only.
 * Throws UnreadableDocumentError for anything it cannot use.
 */
export async function readBrandGuidelinesDocument(file: {
  filename: string;
  declaredContentType: string;
  bytes: Buffer;
}): Promise<ReadDocument> {
  const { bytes } = file;
  const extension = extensionOf(file.filename);
  if (isPdf(bytes)) return { kind: 'pdf', text: requireText(await pdfText(bytes), 'PDF') };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    return { kind: 'docx', text: requireText(await docxText(bytes), 'Word document') };
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    // The Office "compound file" holds both Word 97–2003 documents and password-protected .docx.
    throw new UnreadableDocumentError(
      'is an older Word document (.doc) or a password-protected one: save it as a .docx without a password and upload that',
    );
  }
  const declaredType = file.declaredContentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const looksLikeText = extension !== null ? textExtensions.has(extension) : textTypes.has(declaredType);
  if (!looksLikeText) throw new UnreadableDocumentError(supported);
  const kind: DocumentKind =
    (extension !== null && markdownExtensions.has(extension)) ||
    (extension === null && declaredType !== 'text/plain')
      ? 'md'
      : 'txt';
  return { kind, text: requireText(utf8Text(bytes), kind === 'md' ? 'Markdown file' : 'text file') };
}

function extensionOf(filename: string): string | null {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename.trim());
  return match?.[1] ? match[1].toLowerCase() : null;
}

function startsWith(bytes: Buffer, signature: number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
}

/** PDF readers accept the `%PDF-` header anywhere in the first kilobyte; so does this. */
function isPdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 1024).includes('%PDF-');
}

/**
 * How many bytes zlib data inflates to, counted as it streams on zlib's threads and dropped at
 * once; stops (answering null) as soon as the count passes `cap`. Damaged data counts what it gave.
 */
function inflatedSize(data: Uint8Array, cap: number): Promise<number | null> {
  return new Promise((resolve) => {
    const inflater = createInflate({ chunkSize: 256 * 1024, finishFlush: zlibConstants.Z_SYNC_FLUSH });
    let size = 0;
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        inflater.destroy();
        resolve(null);
      }
    });
    inflater.on('error', () => resolve(size));
    inflater.on('end', () => resolve(size));
    inflater.end(data);
  });
}

/**
 * Inflates every compressed stream of a PDF (between `stream` and `endstream`) with a cap of what
 * is left of `documentLimits.pdfInflatedBytes`, so that a PDF whose few megabytes inflate to
 * gigabytes is refused before PDF.js, which inflates streams whole, ever sees it. Streams that do
 * not start as zlib data (images in other codings) are passed over.
 */
async function checkPdfStreams(bytes: Buffer): Promise<void> {
  let budget = documentLimits.pdfInflatedBytes;
  let at = bytes.indexOf('stream');
  while (at !== -1) {
    const lineEnd = bytes[at + 6] === 0x0d ? (bytes[at + 7] === 0x0a ? at + 8 : at + 7) : at + 7;
    const end = bytes.indexOf('endstream', lineEnd);
    if (end === -1) break;
    // FlateDecode data starts with a zlib header: 0x78.
    if (bytes[lineEnd] === 0x78) {
      const size = await inflatedSize(bytes.subarray(lineEnd, end), budget);
      if (size === null) {
        throw new UnreadableDocumentError(
          `inflates to more than ${documentLimits.pdfInflatedBytes / 1024 / 1024} MB, which no brand guidelines need`,
        );
      }
      budget -= size;
    }
    at = bytes.indexOf('stream', end + 'endstream'.length);
  }
}

async function pdfText(bytes: Buffer): Promise<string> {
  await checkPdfStreams(bytes);
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: PDF.js may take over (detach) the buffer it is given.
    document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    if ((error as Error).name === 'PasswordException') {
      throw new UnreadableDocumentError(
        'is a PDF protected by a password: upload a copy without the password',
      );
    }
    throw new UnreadableDocumentError('could not be read as a PDF: it may be damaged');
  }
  try {
    if (document.numPages > documentLimits.pdfPages) {
      throw new UnreadableDocumentError(
        `has ${document.numPages.toLocaleString('en-US')} pages: Letterset reads brand guidelines of at most ${documentLimits.pdfPages.toLocaleString('en-US')}`,
      );
    }
    const { text } = await extractText(document, { mergePages: true });
    return text;
  } catch (error) {
    if (error instanceof UnreadableDocumentError) throw error;
    throw new UnreadableDocumentError('could not be read as a PDF: it may be damaged');
  } finally {
    await document.loadingTask.destroy();
  }
}

/** One file inside a zip archive, as its central directory describes it. */
interface ZipEntry {
  name: string;
  /** 0: stored; 8: deflated. */
  method: number;
  compressed: Uint8Array;
  declaredSize: number;
}

/**
 * The entries of a zip archive, from its central directory (the one mammoth's zip reader trusts),
 * without unpacking anything. Throws UnreadableDocumentError for a damaged archive, one of zip64
 * size (no document needs it) or one with more than `documentLimits.docxEntries` files.
 */
function zipEntries(bytes: Buffer): ZipEntry[] {
  const damaged = () =>
    new UnreadableDocumentError('could not be read: it looks like a zip archive but is damaged');
  // The end of central directory record: in the last 64 KiB (its comment) and 22 bytes.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at -= 1) {
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end === -1) throw damaged();
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw damaged();
  if (count > documentLimits.docxEntries) {
    throw new UnreadableDocumentError(
      `holds more than ${documentLimits.docxEntries.toLocaleString('en-US')} files inside, which no Word document needs`,
    );
  }
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw damaged();
    const method = bytes.readUInt16LE(at + 10);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const declaredSize = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) throw damaged();
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + compressedSize > bytes.length) throw damaged();
    entries.push({ name, method, declaredSize, compressed: bytes.subarray(start, start + compressedSize) });
  }
  return entries;
}

/** The parts mammoth reads for text: XML and relationships; images and fonts are not unpacked. */
function isTextPart(name: string): boolean {
  return /\.(xml|rels)$/i.test(name);
}

/**
 * A DOCX's text parts, each unpacked with a cap (its declared size, and what is left of
 * `documentLimits.docxXmlBytes`): inflation stops as soon as a part exceeds either, so a zip bomb
 * costs milliseconds. Each part's XML is then scanned for nesting deeper than the bound.
 */
async function docxTextParts(bytes: Buffer): Promise<Record<string, Uint8Array>> {
  const parts: Record<string, Uint8Array> = {};
  let budget = documentLimits.docxXmlBytes;
  const tooLarge = () =>
    new UnreadableDocumentError(
      `unpacks to more than ${documentLimits.docxXmlBytes / 1024 / 1024} MB of text parts, which no brand guidelines need`,
    );
  for (const entry of zipEntries(bytes)) {
    if (!isTextPart(entry.name)) continue;
    if (entry.declaredSize > budget) throw tooLarge();
    let content: Uint8Array;
    if (entry.method === 0) content = entry.compressed;
    else if (entry.method === 8) {
      try {
        content = await inflateRawLimited(entry.compressed, {
          maxOutputLength: Math.max(1, entry.declaredSize),
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new UnreadableDocumentError(
            `could not be read: its part ${entry.name} unpacks to more than its archive says, as a zip bomb does`,
          );
        }
        throw new UnreadableDocumentError('could not be read: it looks like a zip archive but is damaged');
      }
    } else
      throw new UnreadableDocumentError('could not be read: it is compressed in a way Word does not use');
    if (content.length !== entry.declaredSize) {
      throw new UnreadableDocumentError('could not be read: it looks like a zip archive but is damaged');
    }
    budget -= content.length;
    parts[entry.name] = content;
  }
  const elements = { count: 0 };
  for (const [name, content] of Object.entries(parts)) await checkXmlShape(name, content, elements);
  return parts;
}

/**
 * Refuses XML nested deeper than `documentLimits.docxXmlDepth`, or holding more elements than
 * `documentLimits.docxXmlElements` (counted across parts in `elements`), at the element that
 * crosses the bound.
 */
async function checkXmlShape(name: string, content: Uint8Array, elements: { count: number }): Promise<void> {
  const parser = new SaxesParser();
  let depth = 0;
  parser.on('opentagstart', () => {
    depth += 1;
    elements.count += 1;
    if (elements.count > documentLimits.docxXmlElements) {
      throw new UnreadableDocumentError(
        `holds more than ${documentLimits.docxXmlElements.toLocaleString('en-US')} elements in its text parts (reached in ${name}): Letterset reads brand guidelines of some hundreds of pages`,
      );
    }
    if (depth > documentLimits.docxXmlDepth) {
      throw new UnreadableDocumentError(
        `nests elements more than ${documentLimits.docxXmlDepth} deep in its part ${name}, which no Word document does`,
      );
    }
  });
  parser.on('opentag', (tag) => {
    if (tag.isSelfClosing) depth -= 1;
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) depth -= 1;
  });
  // Not well-formed XML is mammoth's to report; this only looks at how deep it goes.
  parser.on('error', () => undefined);
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  const chunk = 256 * 1024;
  for (let start = 0; start < text.length; start += chunk) {
    parser.write(text.slice(start, start + chunk));
    // Other requests are answered between chunks.
    await setImmediate();
  }
}

async function docxText(bytes: Buffer): Promise<string> {
  const parts = await docxTextParts(bytes);
  if (!('word/document.xml' in parts))
    throw new UnreadableDocumentError(`is a zip archive, not a Word document: it ${supported}`);
  // Loaded by the first Word document, not by every start (it takes about 0.15 s to load).
  const { default: mammoth } = await import('mammoth');
  try {
    // mammoth reads only what was checked: the text parts, stored uncompressed.
    const checked = zipSync(
      Object.fromEntries(Object.entries(parts).map(([name, content]) => [name, [content, { level: 0 }]])),
    );
    const result = await mammoth.extractRawText({ buffer: Buffer.from(checked) });
    return result.value;
  } catch {
    throw new UnreadableDocumentError('could not be read as a Word document: it may be damaged');
  }
}

function utf8Text(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new UnreadableDocumentError(
      'is not UTF-8 text: save it with the UTF-8 encoding and upload it again',
    );
  }
  if (text.includes('\u0000')) throw new UnreadableDocumentError(`is not a text file: it ${supported}`);
  return text;
}

function requireText(raw: string, what: string): string {
  // Checked before tidying, which only shortens text: a long text is refused without a pass over it.
  if (raw.length > documentLimits.textCharacters) {
    throw new UnreadableDocumentError(
      `holds more than ${documentLimits.textCharacters.toLocaleString('en-US')} characters of text: upload the part that matters for the AI features (a shorter ${what})`,
    );
  }
  const text = tidyText(raw);
  if (text === '') {
    throw new UnreadableDocumentError(
      what === 'PDF'
        ? 'has no text to read: it may be scanned pages (images of text). Upload a PDF with selectable text, or a Word, Markdown or text file'
        : `has no text: the ${what} is empty`,
    );
  }
  return text;
}

/** Spaces, tabs and no-break spaces at the end of each line: a trailing run is a line's end. */
function trimLineEnds(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let end = line.length;
      while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t' || line[end - 1] === '\u00A0'))
        end -= 1;
      return end === line.length ? line : line.slice(0, end);
    })
    .join('\n');
}

/**
 * Text ready to store and put in prompts: Unix line ends, no control characters (PostgreSQL
 * refuses NUL; others are noise from PDFs), no trailing spaces, at most one blank line in a row.
 * Linear in the text's length: trailing spaces are trimmed line by line, not by a regular
 * expression (`[ \t]+$` tries every start in a long run of spaces, which takes its square).
 */
export function tidyText(raw: string): string {
  return trimLineEnds(
    raw
      .toWellFormed()
      .replace(/\r\n?/g, '\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, ''),
  )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
