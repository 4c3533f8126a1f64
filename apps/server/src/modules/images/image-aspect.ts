import sharp from 'sharp';
import { type GeneratedImageSize, generatedImageSizes } from './images.schemas.ts';

/** A width-to-height proportion, e.g. a field's 600 × 300 image. */
export interface AspectRatio {
  width: number;
  height: number;
}

export interface CropArea {
  left: number;
  top: number;
  width: number;
  height: number;
}

const sizeOf = (size: GeneratedImageSize): AspectRatio => {
  const [width = 0, height = 0] = size.split('x').map(Number);
  return { width, height };
};

/**
 * The size the image models make whose proportion is nearest the one wanted (compared on a log
 * scale, so 2:1 and 1:2 are as far from square), so that cropping to it loses the least.
 */
export function closestGeneratedSize(aspect: AspectRatio): GeneratedImageSize {
  const wanted = Math.log(aspect.width / aspect.height);
  let best: GeneratedImageSize = generatedImageSizes[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const size of generatedImageSizes) {
    const { width, height } = sizeOf(size);
    const distance = Math.abs(Math.log(width / height) - wanted);
    if (distance < bestDistance) {
      best = size;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The largest centred area of a `width` × `height` image in the wanted proportion, in whole
 * pixels: the sides cut evenly from a too-wide image, top and bottom from a too-tall one.
 */
export function centredCrop(width: number, height: number, aspect: AspectRatio): CropArea {
  const wanted = aspect.width / aspect.height;
  if (width / height > wanted) {
    const croppedWidth = Math.max(1, Math.min(width, Math.round(height * wanted)));
    return { left: Math.floor((width - croppedWidth) / 2), top: 0, width: croppedWidth, height };
  }
  const croppedHeight = Math.max(1, Math.min(height, Math.round(width / wanted)));
  return { left: 0, top: Math.floor((height - croppedHeight) / 2), width, height: croppedHeight };
}

/** The image cut to the proportion (PNG, as the image models answer), or as it is when it already has it. */
export async function cropToAspect(bytes: Buffer, size: AspectRatio, aspect: AspectRatio): Promise<Buffer> {
  const area = centredCrop(size.width, size.height, aspect);
  if (area.width === size.width && area.height === size.height) return bytes;
  return sharp(bytes).extract(area).png().toBuffer();
}
