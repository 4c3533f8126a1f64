import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { centredCrop, closestGeneratedSize, cropToAspect } from './image-aspect.ts';

describe('the size asked of the image model', () => {
  it('is the one nearest the wanted proportion', () => {
    expect(closestGeneratedSize({ width: 600, height: 600 })).toBe('1024x1024');
    expect(closestGeneratedSize({ width: 600, height: 300 })).toBe('1536x1024');
    expect(closestGeneratedSize({ width: 16, height: 9 })).toBe('1536x1024');
    expect(closestGeneratedSize({ width: 300, height: 600 })).toBe('1024x1536');
    // On a log scale 5:4 is a little nearer 3:2 (0.18) than square (0.22); 9:8 is nearer square.
    expect(closestGeneratedSize({ width: 5, height: 4 })).toBe('1536x1024');
    expect(closestGeneratedSize({ width: 9, height: 8 })).toBe('1024x1024');
  });
});

describe('the centred crop to a proportion', () => {
  it('cuts the sides of a too-wide image and the top and bottom of a too-tall one', () => {
    expect(centredCrop(1536, 1024, { width: 1, height: 1 })).toEqual({
      left: 256,
      top: 0,
      width: 1024,
      height: 1024,
    });
    expect(centredCrop(1536, 1024, { width: 600, height: 200 })).toEqual({
      left: 0,
      top: 256,
      width: 1536,
      height: 512,
    });
    expect(centredCrop(1024, 1536, { width: 3, height: 4 })).toEqual({
      left: 0,
      top: 85,
      width: 1024,
      height: 1365,
    });
    expect(centredCrop(1024, 1024, { width: 2, height: 2 })).toEqual({
      left: 0,
      top: 0,
      width: 1024,
      height: 1024,
    });
  });

  it('always fits inside the image, is centred, and keeps the proportion to a pixel', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 4096 }),
        fc.integer({ min: 16, max: 4096 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        (width, height, aspectWidth, aspectHeight) => {
          const area = centredCrop(width, height, { width: aspectWidth, height: aspectHeight });
          expect(area.left + area.width).toBeLessThanOrEqual(width);
          expect(area.top + area.height).toBeLessThanOrEqual(height);
          expect(area.left === 0 || area.top === 0).toBe(true);
          // One side is kept whole; the other is centred within a pixel.
          expect(area.width === width || area.height === height).toBe(true);
          expect(Math.abs(width - area.width - 2 * area.left)).toBeLessThanOrEqual(1);
          expect(Math.abs(height - area.height - 2 * area.top)).toBeLessThanOrEqual(1);
          const wanted = aspectWidth / aspectHeight;
          if (area.width === width) expect(Math.abs(area.height - width / wanted)).toBeLessThanOrEqual(1);
          else expect(Math.abs(area.width - height * wanted)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('cropping an image to a proportion', () => {
  it('gives an image of the cropped size, and leaves one already in proportion as it is', async () => {
    const png = await sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 80, b: 40 } },
    })
      .png()
      .toBuffer();
    const cropped = await cropToAspect(png, { width: 300, height: 200 }, { width: 2, height: 1 });
    expect(await sharp(cropped).metadata()).toMatchObject({ width: 300, height: 150, format: 'png' });
    expect(await cropToAspect(png, { width: 300, height: 200 }, { width: 3, height: 2 })).toBe(png);
  });
});
