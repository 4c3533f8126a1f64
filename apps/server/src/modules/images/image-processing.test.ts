import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { animatedGif, jpegWithLocation, solidImage } from '../../test/images.ts';
import {
  inspectImage,
  makeThumbnail,
  prepareForStorage,
  removeJpegMetadataSegments,
} from './image-processing.ts';

const solid = solidImage;

describe('inspectImage', () => {
  it.each([
    ['jpeg', () => solid(30, 20).jpeg().toBuffer()],
    ['png', () => solid(30, 20).png().toBuffer()],
    ['webp', () => solid(30, 20).webp().toBuffer()],
    ['gif', () => solid(30, 20).gif().toBuffer()],
  ] as const)('recognises %s from its bytes, with its size', async (format, make) => {
    expect(await inspectImage(await make())).toEqual({ format, width: 30, height: 20, animated: false });
  });

  it('sees an animated GIF as one frame tall and animated', async () => {
    expect(await inspectImage(await animatedGif())).toEqual({
      format: 'gif',
      width: 10,
      height: 20,
      animated: true,
    });
  });

  it('refuses what is not an accepted image, whatever its name', async () => {
    expect(await inspectImage(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'))).toBeNull();
    expect(await inspectImage(await solid(8, 8).tiff().toBuffer())).toBeNull();
    expect(await inspectImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });
});

describe('prepareForStorage', () => {
  it('removes the location from a JPEG without re-encoding its pixels', async () => {
    const original = await jpegWithLocation();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const image = await inspectImage(original);
    const stored = await prepareForStorage(
      original,
      image ?? { format: 'jpeg', width: 0, height: 0, animated: false },
    );
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes(Buffer.from('Letterset Test Camera'))).toBe(false);
    // Everything from the start of the image data on is byte-identical.
    const startOfScan = (bytes: Buffer) => bytes.subarray(bytes.indexOf(Buffer.from([0xff, 0xda])));
    expect(startOfScan(stored).equals(startOfScan(original))).toBe(true);
  });

  it('rotates a JPEG that relies on its EXIF orientation, so it still looks right without it', async () => {
    const original = await jpegWithLocation(6);
    const stored = await prepareForStorage(original, {
      format: 'jpeg',
      width: 64,
      height: 32,
      animated: false,
    });
    const metadata = await sharp(stored).metadata();
    expect(metadata.exif).toBeUndefined();
    expect([metadata.width, metadata.height]).toEqual([32, 64]);
  });

  it('keeps other formats exactly as uploaded', async () => {
    const png = await solid(10, 10).png().toBuffer();
    expect(await prepareForStorage(png, { format: 'png', width: 10, height: 10, animated: false })).toBe(png);
  });

  it('leaves bytes that are not a JPEG alone', () => {
    const notJpeg = Buffer.from('hello');
    expect(removeJpegMetadataSegments(notJpeg)).toBe(notJpeg);
  });
});

describe('makeThumbnail', () => {
  it('fits within 400 × 400 as WebP, never enlarging', async () => {
    const wide = await makeThumbnail(await solid(1600, 800).png().toBuffer());
    expect([wide.width, wide.height]).toEqual([400, 200]);
    expect((await sharp(wide.bytes).metadata()).format).toBe('webp');
    const small = await makeThumbnail(await solid(120, 90).png().toBuffer());
    expect([small.width, small.height]).toEqual([120, 90]);
  });
});
