import { readFile } from 'node:fs/promises';
import { starterImageFiles } from '@letterset/core';
import type { FileStorage } from '../../storage/file-storage.ts';

const folderKey = 'starter-images';
const bundledFolder = new URL('./starter-images/', import.meta.url);

/**
 * Copies the Letterset Starter's placeholder pictures (shipped with Letterset, drawn by
 * `scripts/draw-starter-images.ts`) into the file storage, where they are served like library images,
 * and returns the folder's public URL for `starterDesignSystem()`. The files never change, so writing
 * them again for another organization is harmless.
 */
export async function publishStarterImages(storage: FileStorage): Promise<string> {
  await Promise.all(
    starterImageFiles.map(async (file) => {
      const body = await readFile(new URL(file, bundledFolder));
      await storage.put(`${folderKey}/${file}`, body, { contentType: 'image/png' });
    }),
  );
  return storage.publicUrl(folderKey);
}
