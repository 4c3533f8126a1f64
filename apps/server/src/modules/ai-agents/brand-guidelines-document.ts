import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';

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
/** What a DOCX may unpack to: far beyond any real document, well short of a zip bomb. */
const maxUnpackedDocxBytes = 200 * 1024 * 1024;

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

async function pdfText(bytes: Buffer): Promise<string> {
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
    const { text } = await extractText(document, { mergePages: true });
    return text;
  } catch {
    throw new UnreadableDocumentError('could not be read as a PDF: it may be damaged');
  } finally {
    await document.loadingTask.destroy();
  }
}

async function docxText(bytes: Buffer): Promise<string> {
  let hasDocumentPart = false;
  let unpackedBytes = 0;
  try {
    // Reads the zip's directory only (the filter keeps nothing): what it holds and how large.
    unzipSync(bytes, {
      filter(entry) {
        if (entry.name === 'word/document.xml') hasDocumentPart = true;
        unpackedBytes += entry.originalSize;
        return false;
      },
    });
  } catch {
    throw new UnreadableDocumentError('could not be read: it looks like a zip archive but is damaged');
  }
  if (!hasDocumentPart)
    throw new UnreadableDocumentError(`is a zip archive, not a Word document: it ${supported}`);
  if (unpackedBytes > maxUnpackedDocxBytes) {
    throw new UnreadableDocumentError('unpacks to more than 200 MB, which no brand guidelines need');
  }
  try {
    const result = await mammoth.extractRawText({ buffer: bytes });
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

/**
 * Text ready to store and put in prompts: Unix line ends, no control characters (PostgreSQL
 * refuses NUL; others are noise from PDFs), no trailing spaces, at most one blank line in a row.
 */
export function tidyText(raw: string): string {
  return (
    raw
      .toWellFormed()
      .replace(/\r\n?/g, '\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, '')
      .replace(/[ \t\u00A0]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
