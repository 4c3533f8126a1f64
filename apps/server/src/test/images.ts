import sharp from 'sharp';

/** Real image bytes, made in the test: solid colour, any size, any accepted format. */
export function solidImage(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: '#1890ff' } });
}

/** A JPEG that says where it was taken (Greenwich) and by which camera. */
export async function jpegWithLocation(orientation = 1): Promise<Buffer> {
  return solidImage(64, 32)
    .jpeg()
    .withExif({
      IFD0: { Make: 'Letterset Test Camera' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 28/1 38/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 0/1 5/1',
      },
    })
    .withMetadata({ orientation })
    .toBuffer();
}

/** Two different 10 × 20 frames (the encoder merges identical ones). */
export async function animatedGif(): Promise<Buffer> {
  const frames = Buffer.concat([Buffer.alloc(10 * 20 * 4, 0x40), Buffer.alloc(10 * 20 * 4, 0xc0)]);
  return sharp(frames, { raw: { width: 10, height: 40, channels: 4, pageHeight: 20 } })
    .gif()
    .toBuffer();
}
