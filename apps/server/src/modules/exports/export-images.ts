import { imageUrlsIn, rewriteImageUrls, starterImageFiles } from '@letterset/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { images } from '../../db/schema.ts';
import { starterImagesFolderKey } from '../organizations/starter-images.ts';

/** A picture Letterset stores that an export shows: a library image or one of the starter's. */
export type ExportImage =
  | { kind: 'library'; id: string; storageKey: string; fileName: string }
  | { kind: 'starter'; file: StarterImageFile; storageKey: string; fileName: string };

export type StarterImageFile = (typeof starterImageFiles)[number];

/** What a URL of an image Letterset stores names, before the library is asked whether it exists. */
export type StoredImageAddress =
  | { kind: 'library'; organizationId: number; id: string }
  | { kind: 'starter'; file: StarterImageFile };

/**
 * Library images by their storage key, `images/<organization>/<image id>.<extension>`; starter
 * pictures by theirs, `starter-images/<file>`. Matched on the URL's path wherever it points (this
 * server's /files/ under any address it had, a bucket, a CDN): an email keeps the address the image
 * had when it was chosen, which may be an address the server no longer has.
 */
const libraryPath = /(?:^|\/)images\/(\d+)\/(img_[0-9a-f]{20})\.(?:png|jpe?g|gif|webp)$/;
const starterPath = new RegExp(`(?:^|/)${starterImagesFolderKey}/([a-z0-9-]+\\.png)$`);
const starterFiles = new Set<string>(starterImageFiles);

/** Which stored image a URL shows, or null for a picture Letterset does not store. */
export function storedImageAddress(url: string): StoredImageAddress | null {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, 'https://relative.invalid/').pathname);
  } catch {
    return null;
  }
  const library = libraryPath.exec(path);
  if (library?.[1] && library[2])
    return { kind: 'library', organizationId: Number(library[1]), id: library[2] };
  const starter = starterPath.exec(path);
  if (starter?.[1] && starterFiles.has(starter[1]))
    return { kind: 'starter', file: starter[1] as StarterImageFile };
  return null;
}

/** A picture loaded from elsewhere when the email is opened; embedded (data:) and cid: ones are not. */
function loadsFromElsewhere(url: string): boolean {
  return /^(?:https?:)?\/\//i.test(url);
}

/** What an HTML document shows: the stored images by the URLs it shows them at, and the other pictures. */
export interface ShownImages {
  stored: Map<string, ExportImage>;
  /** Pictures loaded from addresses Letterset does not store (another host, another organization's). */
  external: string[];
}

/**
 * The stored images an export shows, looked up as its HTML shows them: each library image once per
 * export, however many locales and URLs show it. Another organization's images are not this
 * export's to pack.
 */
export class StoredImages {
  private readonly known = new Map<string, ExportImage | null>();
  private readonly db: Database;
  private readonly organizationId: number;

  constructor(deps: { db: Database }, organizationId: number) {
    this.db = deps.db;
    this.organizationId = organizationId;
  }

  async shownIn(html: string): Promise<ShownImages> {
    const addresses = new Map<string, StoredImageAddress | null>();
    for (const url of imageUrlsIn(html)) addresses.set(url, storedImageAddress(url));
    const unknown = new Set<string>();
    for (const address of addresses.values())
      if (
        address?.kind === 'library' &&
        address.organizationId === this.organizationId &&
        !this.known.has(address.id)
      )
        unknown.add(address.id);
    if (unknown.size > 0) {
      const rows = await this.db
        .select({ id: images.id, storageKey: images.storageKey, extension: images.extension })
        .from(images)
        .where(and(eq(images.organizationId, this.organizationId), inArray(images.id, [...unknown])));
      for (const id of unknown) this.known.set(id, null);
      for (const row of rows)
        this.known.set(row.id, {
          kind: 'library',
          id: row.id,
          storageKey: row.storageKey,
          // Image ids are unique, and no starter file name starts with img_: names never clash.
          fileName: `${row.id}.${row.extension}`,
        });
    }
    const stored = new Map<string, ExportImage>();
    const external: string[] = [];
    for (const [url, address] of addresses) {
      const image =
        address?.kind === 'starter'
          ? starterImage(address.file)
          : address?.kind === 'library' && address.organizationId === this.organizationId
            ? this.known.get(address.id)
            : null;
      if (image) stored.set(url, image);
      else if (loadsFromElsewhere(url)) external.push(url);
    }
    return { stored, external };
  }
}

function starterImage(file: StarterImageFile): ExportImage {
  return {
    kind: 'starter',
    file,
    storageKey: `${starterImagesFolderKey}/${file}`,
    fileName: `starter-${file}`,
  };
}

/**
 * Points every stored image the HTML shows at `urlFor(image)` (a path in the zip, or the public
 * URL); other pictures, and everything that is not an image URL, stay as they are. Returns the HTML
 * and the images it shows, each once however many URLs and places show it.
 */
export function rewriteStoredImages(
  html: string,
  stored: ReadonlyMap<string, ExportImage>,
  urlFor: (image: ExportImage) => string,
): { html: string; images: ExportImage[] } {
  const shown = new Map<string, ExportImage>();
  const rewritten = rewriteImageUrls(html, (url) => {
    const image = stored.get(url);
    if (!image) return undefined;
    shown.set(image.storageKey, image);
    return urlFor(image);
  });
  return { html: rewritten, images: [...shown.values()] };
}
