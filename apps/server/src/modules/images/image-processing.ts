import sharp from 'sharp';

export const acceptedImageFormats = ['jpeg', 'png', 'gif', 'webp'] as const;
export type AcceptedImageFormat = (typeof acceptedImageFormats)[number];

export const extensionOf: Record<AcceptedImageFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
};
export const contentTypeOf: Record<AcceptedImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Decompression bombs stop here: no email image needs more than 50 megapixels. */
const limitInputPixels = 50_000_000;

export interface InspectedImage {
  format: AcceptedImageFormat;
  width: number;
  height: number;
  animated: boolean;
}

/** What the bytes really are (never the file name or the client's content type), or null if not an accepted image. */
export async function inspectImage(bytes: Buffer): Promise<InspectedImage | null> {
  try {
    const metadata = await sharp(bytes, { limitInputPixels, animated: true }).metadata();
    const format = metadata.format as string | undefined;
    if (!format || !(acceptedImageFormats as readonly string[]).includes(format)) return null;
    const pages = metadata.pages ?? 1;
    const width = metadata.width ?? 0;
    // For animations sharp reports the height of all frames stacked; one frame is what people see.
    const height = metadata.pageHeight ?? (metadata.height ?? 0) / pages;
    if (width < 1 || height < 1) return null;
    return { format: format as AcceptedImageFormat, width, height, animated: pages > 1 };
  } catch {
    return null;
  }
}

/**
 * The bytes to store. JPEGs lose their EXIF and XMP segments (which can hold where a photo was
 * taken) without being re-encoded; a photo that relies on its EXIF orientation is rotated first so
 * it still looks right. Other formats, animated GIFs included, are stored exactly as uploaded.
 */
export async function prepareForStorage(bytes: Buffer, image: InspectedImage): Promise<Buffer> {
  if (image.format !== 'jpeg') return bytes;
  const { orientation } = await sharp(bytes, { limitInputPixels }).metadata();
  if (orientation !== undefined && orientation !== 1) {
    return sharp(bytes, { limitInputPixels })
      .rotate()
      .keepIccProfile()
      .jpeg({ quality: 92, mozjpeg: true })
      .toBuffer();
  }
  return removeJpegMetadataSegments(bytes);
}

const exifSignature = Buffer.from('Exif\0\0', 'latin1');
const xmpSignature = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');

/** Drops APP1 segments holding EXIF or XMP; every other byte is copied unchanged. */
export function removeJpegMetadataSegments(jpeg: Buffer): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return jpeg;
  const kept: Buffer[] = [jpeg.subarray(0, 2)];
  let offset = 2;
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1] ?? 0;
    // Start of scan: the compressed image data follows; copy the rest as is.
    if (marker === 0xda) break;
    const length = jpeg.readUInt16BE(offset + 2);
    const segmentEnd = offset + 2 + length;
    const payload = jpeg.subarray(offset + 4, segmentEnd);
    const isLocationBearing =
      marker === 0xe1 &&
      (payload.subarray(0, exifSignature.length).equals(exifSignature) ||
        payload.subarray(0, xmpSignature.length).equals(xmpSignature));
    if (!isLocationBearing) kept.push(jpeg.subarray(offset, segmentEnd));
    offset = segmentEnd;
  }
  kept.push(jpeg.subarray(offset));
  return Buffer.concat(kept);
}

/** The library grid's picture: at most 400 × 400, WebP, first frame of an animation. */
export async function makeThumbnail(
  bytes: Buffer,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes, { limitInputPixels })
    .rotate()
    .resize(400, 400, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}
