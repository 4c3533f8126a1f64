/**
 * CSS colours as email HTML writes them (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()`,
 * `hsl()`/`hsla()`, the 148 named colours, `transparent`), and the WCAG 2.x contrast ratio.
 */

/** A colour with channels 0–255 and alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

// The CSS Color 4 named colours (the 147 of SVG and CSS 3, with rebeccapurple): name, then hex.
const namedColorList =
  'aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc ' +
  'bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a ' +
  'burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50 ' +
  'cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b darkcyan 008b8b ' +
  'darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 darkkhaki bdb76b ' +
  'darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 ' +
  'darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f ' +
  'darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff ' +
  'dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0 ' +
  'forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700 ' +
  'goldenrod daa520 gray 808080 green 008000 greenyellow adff2f grey 808080 honeydew f0fff0 ' +
  'hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa ' +
  'lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080 ' +
  'lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 ' +
  'lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa ' +
  'lightslategray 778899 lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 ' +
  'limegreen 32cd32 linen faf0e6 magenta ff00ff maroon 800000 mediumaquamarine 66cdaa ' +
  'mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db mediumseagreen 3cb371 ' +
  'mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc mediumvioletred c71585 ' +
  'midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead ' +
  'navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 orangered ff4500 ' +
  'orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee palevioletred db7093 ' +
  'papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6 ' +
  'purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 ' +
  'saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d ' +
  'silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa ' +
  'springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347 ' +
  'turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00 ' +
  'yellowgreen 9acd32';

/** The named colours, name → `#rrggbb`. */
export const namedColors: ReadonlyMap<string, string> = (() => {
  const words = namedColorList.split(' ');
  const map = new Map<string, string>();
  for (let index = 0; index < words.length; index += 2) map.set(words[index] ?? '', `#${words[index + 1]}`);
  return map;
})();

const clampChannel = (value: number) => Math.min(255, Math.max(0, value));
const clampAlpha = (value: number) => Math.min(1, Math.max(0, value));

/** A number or percentage (of `percentOf`); NaN when it is neither. */
function numberOf(text: string, percentOf: number): number {
  const trimmed = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?%?$/i.test(trimmed)) return Number.NaN;
  return trimmed.endsWith('%') ? (Number.parseFloat(trimmed) / 100) * percentOf : Number.parseFloat(trimmed);
}

/** The arguments of `rgb(…)`/`hsl(…)`, comma- or space-separated, with an optional `/ alpha`. */
function functionArguments(body: string): { channels: string[]; alpha: string | undefined } | null {
  let channels: string[];
  let alpha: string | undefined;
  if (body.includes(',')) {
    channels = body.split(',').map((part) => part.trim());
    if (channels.length === 4) alpha = channels.pop();
  } else {
    const [colour, slashAlpha, ...rest] = body.split('/');
    if (rest.length > 0 || colour === undefined) return null;
    channels = colour.trim().split(/\s+/);
    alpha = slashAlpha?.trim();
  }
  return channels.length === 3 ? { channels, alpha } : null;
}

function hueToRgb(p: number, q: number, t: number): number {
  const h = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
  if (h < 1 / 6) return p + (q - p) * 6 * h;
  if (h < 1 / 2) return q;
  if (h < 2 / 3) return p + (q - p) * (2 / 3 - h) * 6;
  return p;
}

/**
 * The colour a CSS colour value names, or null when it names none this can know (`inherit`,
 * `currentColor`, a `var()`, a typo). Legacy HTML attributes (`bgcolor="1B5E20"`) may omit the `#`:
 * pass `legacyAttribute`.
 */
export function parseCssColor(value: string, legacyAttribute = false): Rgba | null {
  const text = value.trim().toLowerCase();
  if (text === '') return null;
  if (text === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const named = namedColors.get(text);
  if (named !== undefined) return parseCssColor(named);
  const hex = /^#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text);
  if (hex?.[1] && (text.startsWith('#') || legacyAttribute)) {
    const digits = hex[1];
    const full = digits.length <= 4 ? [...digits].map((digit) => digit + digit).join('') : digits;
    const channel = (index: number) => Number.parseInt(full.slice(index * 2, index * 2 + 2), 16);
    return { r: channel(0), g: channel(1), b: channel(2), a: full.length === 8 ? channel(3) / 255 : 1 };
  }
  const call = /^(rgba?|hsla?)\(\s*([^()]*)\)$/.exec(text);
  if (!call?.[1] || call[2] === undefined) return null;
  const parts = functionArguments(call[2]);
  if (!parts) return null;
  const alpha = parts.alpha === undefined ? 1 : numberOf(parts.alpha, 1);
  if (Number.isNaN(alpha)) return null;
  if (call[1].startsWith('rgb')) {
    const [r, g, b] = parts.channels.map((channel) => numberOf(channel, 255));
    if (r === undefined || g === undefined || b === undefined || [r, g, b].some(Number.isNaN)) return null;
    return { r: clampChannel(r), g: clampChannel(g), b: clampChannel(b), a: clampAlpha(alpha) };
  }
  const [hueText = '', saturationText = '', lightnessText = ''] = parts.channels;
  const hue = Number.parseFloat(hueText.replace(/deg$/, ''));
  const saturation = numberOf(saturationText.endsWith('%') ? saturationText : `${saturationText}%`, 1);
  const lightness = numberOf(lightnessText.endsWith('%') ? lightnessText : `${lightnessText}%`, 1);
  if ([hue, saturation, lightness].some(Number.isNaN)) return null;
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = clampAlpha(saturation);
  const l = clampAlpha(lightness);
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  return {
    r: hueToRgb(p, q, h + 1 / 3) * 255,
    g: hueToRgb(p, q, h) * 255,
    b: hueToRgb(p, q, h - 1 / 3) * 255,
    a: clampAlpha(alpha),
  };
}

/** `top` painted over the opaque `bottom`: what the reader sees. */
export function blend(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a;
  return {
    r: top.r * a + bottom.r * (1 - a),
    g: top.g * a + bottom.g * (1 - a),
    b: top.b * a + bottom.b * (1 - a),
    a: 1,
  };
}

/** WCAG 2.x relative luminance of an opaque colour, 0 (black) to 1 (white). */
export function relativeLuminance(color: Rgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b);
}

/** WCAG 2.x contrast ratio of two opaque colours, 1 (none) to 21 (black on white). */
export function contrastRatio(first: Rgba, second: Rgba): number {
  const a = relativeLuminance(first);
  const b = relativeLuminance(second);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** `#RRGGBB` of an opaque colour (channels rounded). */
export function hexOf(color: Rgba): string {
  const channel = (value: number) => Math.round(clampChannel(value)).toString(16).padStart(2, '0');
  return `#${channel(color.r)}${channel(color.g)}${channel(color.b)}`.toUpperCase();
}
