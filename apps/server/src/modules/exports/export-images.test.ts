import { describe, expect, it } from 'vitest';
import { type ExportImage, rewriteStoredImages, storedImageAddress } from './export-images.ts';

const libraryId = 'img_0123456789abcdef0123';

describe('storedImageAddress', () => {
  it('knows library and starter pictures by their storage key, under any address the server had', () => {
    for (const base of [
      'http://localhost:3000/files',
      'https://cdn.example.com/letterset',
      'https://bucket.s3.test',
    ]) {
      expect(storedImageAddress(`${base}/images/7/${libraryId}.jpg`)).toEqual({
        kind: 'library',
        organizationId: 7,
        id: libraryId,
      });
      expect(storedImageAddress(`${base}/starter-images/social-light-x.png?v=2`)).toEqual({
        kind: 'starter',
        file: 'social-light-x.png',
      });
    }
    expect(storedImageAddress(`/files/images/7/${libraryId}.png`)).toMatchObject({ kind: 'library' });
  });

  it('leaves everything else to its address', () => {
    for (const url of [
      'https://pictures.example.net/banner.png',
      // A thumbnail, a file the starter does not ship, and look-alikes.
      `https://letterset.example.com/files/images/7/${libraryId}-thumbnail.webp`,
      'https://letterset.example.com/files/starter-images/unknown.png',
      `https://letterset.example.com/files/myimages/7/${libraryId}.png`,
      'data:image/png;base64,iVBORw0KGgo=',
      'cid:logo@example',
      'http://[bad',
    ])
      expect(storedImageAddress(url), url).toBeNull();
  });
});

describe('rewriteStoredImages', () => {
  it('points each stored picture at its new address and answers each image once', () => {
    const image: ExportImage = {
      kind: 'library',
      id: libraryId,
      storageKey: `images/7/${libraryId}.png`,
      fileName: `${libraryId}.png`,
    };
    const old = `http://localhost:3000/files/images/7/${libraryId}.png`;
    const current = `https://cdn.example.com/images/7/${libraryId}.png`;
    const html = `<img src="${old}"><td background="${current}"><a href="${old}">full size</a><img src="https://elsewhere.test/x.png">`;
    const { html: rewritten, images } = rewriteStoredImages(
      html,
      new Map([
        [old, image],
        [current, image],
      ]),
      (shown) => `images/${shown.fileName}`,
    );
    expect(rewritten).toBe(
      `<img src="images/${libraryId}.png"><td background="images/${libraryId}.png"><a href="${old}">full size</a><img src="https://elsewhere.test/x.png">`,
    );
    expect(images).toEqual([image]);
  });
});
