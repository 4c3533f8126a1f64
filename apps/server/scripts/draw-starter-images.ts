/**
 * Draws the Letterset Starter's placeholder pictures into
 * `src/modules/organizations/starter-images/` (checked in, so no font or network is needed at run
 * time). Run again after changing a picture: `node scripts/draw-starter-images.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

const folder = path.join(import.meta.dirname, '../src/modules/organizations/starter-images');

interface Placeholder {
  file: string;
  width: number;
  height: number;
  background: string;
  ink: string;
  label: string;
  /** A mountain-and-sun pictogram above the label, as image placeholders commonly show. */
  pictogram: boolean;
}

const pictures: Placeholder[] = [
  {
    file: 'logo.png',
    width: 240,
    height: 60,
    background: '#2f5bea',
    ink: '#ffffff',
    label: 'Letterset',
    pictogram: false,
  },
  {
    file: 'hero.png',
    width: 1200,
    height: 600,
    background: '#e8edfd',
    ink: '#2f5bea',
    label: 'Hero image',
    pictogram: true,
  },
  {
    file: 'image.png',
    width: 1072,
    height: 600,
    background: '#e2e6ea',
    ink: '#5f6b7a',
    label: 'Image',
    pictogram: true,
  },
  {
    file: 'image-and-text.png',
    width: 512,
    height: 384,
    background: '#e8edfd',
    ink: '#2f5bea',
    label: 'Image',
    pictogram: true,
  },
  {
    file: 'product.png',
    width: 1068,
    height: 712,
    background: '#f3f4f6',
    ink: '#1f2933',
    label: 'Product',
    pictogram: true,
  },
];

const networks = { f: 'f', ig: 'ig', x: 'x', in: 'in' } as const;
const socialThemes = {
  light: { background: '#ffffff', ink: '#1f2933' },
  dark: { background: '#1f2933', ink: '#ffffff' },
} as const;

for (const [theme, colours] of Object.entries(socialThemes)) {
  for (const [network, label] of Object.entries(networks)) {
    pictures.push({
      file: `social-${theme}-${network}.png`,
      width: 64,
      height: 64,
      ...colours,
      label,
      pictogram: false,
    });
  }
}

function svgOf(picture: Placeholder): string {
  const { width, height, background, ink, label } = picture;
  const unit = Math.min(width, height);
  const fontSize = Math.round(picture.pictogram ? unit * 0.09 : unit * 0.42);
  const centerX = width / 2;
  const labelY = picture.pictogram ? height / 2 + unit * 0.24 : height / 2 + fontSize * 0.35;
  const size = unit * 0.32;
  const left = centerX - size / 2;
  const top = height / 2 - size * 0.75;
  const pictogram = picture.pictogram
    ? `<g fill="${ink}" opacity="0.55">
        <circle cx="${left + size * 0.72}" cy="${top + size * 0.28}" r="${size * 0.11}"/>
        <path d="M ${left} ${top + size} L ${left + size * 0.35} ${top + size * 0.45} L ${left + size * 0.58} ${top + size * 0.75} L ${left + size * 0.72} ${top + size * 0.58} L ${left + size} ${top + size} Z"/>
      </g>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${background}"/>
    ${pictogram}
    <text x="${centerX}" y="${labelY}" fill="${ink}" font-family="DejaVu Sans, Liberation Sans, sans-serif"
      font-weight="bold" font-size="${fontSize}" text-anchor="middle">${label}</text>
  </svg>`;
}

await mkdir(folder, { recursive: true });
for (const picture of pictures) {
  const png = await sharp(Buffer.from(svgOf(picture)))
    .png({ palette: true, compressionLevel: 9 })
    .toBuffer();
  await writeFile(path.join(folder, picture.file), png);
  process.stdout.write(`${picture.file}: ${picture.width}×${picture.height}, ${png.length} bytes\n`);
}
