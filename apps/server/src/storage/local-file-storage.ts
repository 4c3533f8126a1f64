import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, contentTypeForKey, type FileStorage, type StoredFile } from './file-storage.ts';

/** Files in a folder on this machine, served by this server under `publicBaseUrl`. */
export class LocalFileStorage implements FileStorage {
  private readonly dir: string;
  private readonly publicBaseUrl: string;

  constructor(options: { dir: string; publicBaseUrl: string }) {
    this.dir = options.dir;
    this.publicBaseUrl = options.publicBaseUrl;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write aside, then rename: a reader never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, body);
    await rename(partial, file);
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.pathOf(key);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    return { body: createReadStream(file), contentType: contentTypeForKey(key), size: info.size };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  publicUrl(key: string): string {
    assertSafeKey(key);
    return `${this.publicBaseUrl}/${key}`;
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.dir, ...key.split('/'));
  }
}
