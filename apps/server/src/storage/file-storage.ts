import type { Readable } from 'node:stream';

/**
 * Where files live: uploaded images, export archives, PDFs, AI images, brand documents. Keys are
 * paths like `images/ab/abcd1234.png`; a key is written once and never changes, so every file can
 * be cached forever.
 */
export interface FileStorage {
  put(key: string, body: Buffer, options: { contentType: string }): Promise<void>;
  /** The file, or null when there is none under the key. */
  get(key: string): Promise<StoredFile | null>;
  /** Deleting a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /** The absolute URL anyone (an email client) can load the file from. */
  publicUrl(key: string): string;
}

export interface StoredFile {
  body: Readable;
  contentType: string;
  size: number;
}

/** Lower-case letters, digits, `-`, `_`, `.` and `/` between segments; no `..`, no leading slash. */
const safeKey = /^(?!.*\.\.)[a-z0-9_-][a-z0-9._/-]*$/;

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Not a valid storage key: ${JSON.stringify(key)}`);
    this.name = 'InvalidStorageKeyError';
  }
}

export function assertSafeKey(key: string): void {
  if (!safeKey.test(key) || key.endsWith('/') || key.includes('//')) throw new InvalidStorageKeyError(key);
}

const contentTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  html: 'text/html; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** The content type a key's extension stands for. */
export function contentTypeForKey(key: string): string {
  const extension = key.split('.').pop()?.toLowerCase() ?? '';
  return contentTypes[extension] ?? 'application/octet-stream';
}
