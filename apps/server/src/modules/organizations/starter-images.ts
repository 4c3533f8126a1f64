import { readFile } from 'node:fs/promises';
import { starterImageFiles } from '@letterset/core';
import type { FileStorage } from '../../storage/file-storage.ts';

/** The folder of the file storage the starter's pictures are published to. */
export const starterImagesFolderKey = 'starter-images';
const folderKey = starterImagesFolderKey;
const bundledFolder = new URL('./starter-images/', import.meta.url);

/** One publication per storage in a process: every organization after the first reuses it. */
const published = new WeakMap<FileStorage, Promise<string>>();

/**
 * Copies the Letterset Starter's placeholder pictures (shipped with Letterset, drawn by
 * `scripts/draw-starter-images.ts`) into the file storage, where they are served like library images,
 * and returns the folder's public URL for `starterDesignSystem()`. The files never change, so a
 * process writes them once, at its first new organization.
 */
export function publishStarterImages(storage: FileStorage): Promise<string> {
  let publication = published.get(storage);
  if (!publication) {
    publication = copyStarterImages(storage);
    published.set(storage, publication);
    // A failed copy (storage unreachable) is tried again by the next organization.
    publication.catch(() => published.delete(storage));
  }
  return publication;
}

async function copyStarterImages(storage: FileStorage): Promise<string> {
  await Promise.all(
    starterImageFiles.map(async (file) => {
      const body = await readFile(new URL(file, bundledFolder));
      await storage.put(`${folderKey}/${file}`, body, { contentType: 'image/png' });
    }),
  );
  return storage.publicUrl(folderKey);
}

/**
 * A starter picture's bytes as shipped with Letterset (the same bytes the storage holds), for an
 * export that packs it: read from the bundle, it is there even in a storage it was never copied to.
 */
export function readStarterImage(file: (typeof starterImageFiles)[number]): Promise<Buffer> {
  return readFile(new URL(file, bundledFolder));
}
