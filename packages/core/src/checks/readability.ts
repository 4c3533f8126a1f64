import { Parser } from 'htmlparser2';
import { textDirectionOf } from '../locales.ts';
import { blend, contrastRatio, hexOf, parseCssColor, type Rgba } from './css-colors.ts';

/**
 * Readability checks over an email's rendered HTML (CSS inlined, so each element's style is in its
 * `style` attribute): text too faint against its background, a document that does not say its
 * language or direction, links that say only "click here". All are warnings.
 */
export const readabilityProblemCodes = {
  /** Text whose contrast with its background is below WCAG AA: 4.5:1, 3:1 for large text (warning). */
  lowContrast: 'low_contrast',
  /** A document whose <html> (or <body>) sets no lang, or one of another language than the locale (warning). */
  missingLang: 'missing_lang',
  /** The document of a left-to-right locale sets no dir on <html> or <body> (warning). */
  missingDir: 'missing_dir',
  /** A link whose text is only "here", "click here", "link"… (warning). */
  vagueLinkText: 'vague_link_text',
} as const;

export type ReadabilityProblemCode = (typeof readabilityProblemCodes)[keyof typeof readabilityProblemCodes];

export interface ReadabilityProblem {
  code: ReadabilityProblemCode;
  severity: 'warning';
  /** The rendered HTML does not mark component instances, so this is null for now. */
  component_instance_id: string | null;
  message: string;
}

/** WCAG 2.x AA: the least contrast for body text, and for large text. */
export const minimumContrast = { normal: 4.5, large: 3 } as const;

/** WCAG's large text: 18pt (24px), or 14pt (18.66px) bold. */
export function isLargeText(fontSizePx: number, bold: boolean): boolean {
  return fontSizePx >= 24 || (bold && fontSizePx >= 18.66);
}

/**
 * Link texts that say nothing of where a link leads (compared lower-cased, punctuation and symbols
 * removed, spaces collapsed). "Read more" and "Learn more" are left out: as a button under a
 * headline their context names the destination, and flagging every one would bury the real cases.
 */
export const vagueLinkTexts: ReadonlySet<string> = new Set([
  'here',
  'click',
  'click here',
  'click this',
  'click this link',
  'tap here',
  'press here',
  'this',
  'this link',
  'link',
  'here link',
  'go',
  // German, Dutch, French, Spanish, Portuguese, Italian.
  'hier',
  'hier klicken',
  'klicken sie hier',
  'klik hier',
  'ici',
  'cliquez ici',
  'clique ici',
  'aquí',
  'aqui',
  'haga clic aquí',
  'haz clic aquí',
  'clic aquí',
  'clique aqui',
  'qui',
  'clicca qui',
]);

/** The normalized text a link is compared on. */
export function normalizedLinkText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const white: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const black: Rgba = { r: 0, g: 0, b: 0, a: 1 };
/** Browsers' colour for a link the HTML does not colour. */
const defaultLinkColor: Rgba = { r: 0, g: 0, b: 0xee, a: 1 };

/** Elements whose text is never shown. */
const textlessElements = new Set(['head', 'title', 'style', 'script', 'template', 'noscript', 'xml']);
/** Elements browsers show bold, and the size they give them relative to their parent. */
const boldElements = new Set(['b', 'strong', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const relativeSizes: Record<string, number> = {
  h1: 2,
  h2: 1.5,
  h3: 1.17,
  h5: 0.83,
  h6: 0.67,
  small: 0.83,
  big: 1.2,
};
const absoluteSizes: Record<string, number> = {
  'xx-small': 9,
  'x-small': 10,
  small: 13,
  medium: 16,
  large: 18,
  'x-large': 24,
  'xx-large': 32,
  'xxx-large': 48,
};
/** `<font size="1">` … `<font size="7">` in pixels. */
const fontTagSizes = [10, 13, 16, 18, 24, 32, 48];
/** Sending-platform code, which the platform replaces at send time: not text a reader sees. */
const platformCode =
  /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|%%\[[\s\S]*?\]%%|%%[^%\s]+%%|\*\|[^|]*\|\*|\[\[[^\]]*\]\]/g;

/** What an element passes on to its content. */
interface Frame {
  name: string;
  /** The text colour (alpha is blended over the background where the text is). */
  color: Rgba;
  /** The opaque background behind it, or null when it is an image of unknown colour. */
  background: Rgba | null;
  fontSizePx: number;
  bold: boolean;
  hidden: boolean;
  link: LinkRun | null;
  /** This element opened `link`. */
  opensLink: boolean;
}

interface LinkRun {
  href: string;
  text: string;
  ariaLabel: string;
  hasImageWithAlt: boolean;
}

/** An inline `style` attribute as property → value (last one wins, `!important` dropped). */
export function parseInlineStyle(style: string): Map<string, string> {
  const declarations = new Map<string, string>();
  let depth = 0;
  let quote = '';
  let start = 0;
  const take = (end: number) => {
    const declaration = style.slice(start, end);
    const colon = declaration.indexOf(':');
    if (colon > 0) {
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration
        .slice(colon + 1)
        .replace(/!\s*important\s*$/i, '')
        .trim();
      if (property !== '') declarations.set(property, value);
    }
    start = end + 1;
  };
  for (let index = 0; index < style.length; index += 1) {
    const char = style[index];
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === ';' && depth === 0) take(index);
  }
  take(style.length);
  return declarations;
}

/** The colour and whether there is an image in a `background` shorthand. */
function backgroundShorthand(value: string): { color: Rgba | null; image: boolean } {
  const image = /url\(|gradient\(|image-set\(/i.test(value);
  // The colour may only be in the last layer; split it into words outside parentheses.
  const lastLayer = splitOutside(value, ',').at(-1) ?? '';
  let color: Rgba | null = null;
  for (const word of splitOutside(lastLayer, ' ')) {
    const parsed = word.includes('(') && !/^(rgba?|hsla?)\(/i.test(word) ? null : parseCssColor(word);
    if (parsed) color = parsed;
  }
  return { color, image };
}

function splitOutside(text: string, separator: ',' | ' '): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    const splits = depth === 0 && (separator === ' ' ? /\s/.test(char) : char === separator);
    if (splits) {
      if (current.trim() !== '') parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/** A CSS font-size in pixels, given the parent's; null when it cannot be read. */
function fontSizeOf(value: string, parentPx: number): number | null {
  const text = value.trim().toLowerCase();
  if (text in absoluteSizes) return absoluteSizes[text] ?? null;
  if (text === 'smaller') return parentPx / 1.2;
  if (text === 'larger') return parentPx * 1.2;
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(px|pt|em|rem|%|)$/.exec(text);
  if (!match?.[1]) return null;
  const number = Number.parseFloat(match[1]);
  switch (match[2]) {
    case 'px':
      return number;
    case 'pt':
      return (number * 4) / 3;
    case 'em':
      return number * parentPx;
    case 'rem':
      return number * 16;
    case '%':
      return (number / 100) * parentPx;
    default:
      return number === 0 ? 0 : null;
  }
}

function isBoldWeight(value: string, parentBold: boolean): boolean {
  const text = value.trim().toLowerCase();
  if (text === 'bold' || text === 'bolder') return true;
  if (text === 'normal' || text === 'lighter') return false;
  const number = Number.parseFloat(text);
  return Number.isNaN(number) ? parentBold : number >= 700;
}

/** The `font` shorthand's size and weight, when it has them. */
function fontShorthand(value: string, parentPx: number): { sizePx: number | null; bold: boolean | null } {
  let sizePx: number | null = null;
  let bold: boolean | null = null;
  for (const word of value.trim().split(/\s+/)) {
    const lower = word.toLowerCase();
    if (sizePx === null && /^[\d.]/.test(lower) && /[a-z%]/.test(lower)) {
      sizePx = fontSizeOf(lower.split('/')[0] ?? '', parentPx);
    } else if (lower === 'bold' || lower === 'bolder' || /^[7-9]00$/.test(lower)) bold = true;
    else if (/^[1-6]00$/.test(lower) || lower === 'lighter') bold = false;
  }
  return { sizePx, bold };
}

function isHidden(name: string, attributes: Record<string, string>, style: Map<string, string>): boolean {
  if ('hidden' in attributes || textlessElements.has(name)) return true;
  const value = (property: string) => (style.get(property) ?? '').trim().toLowerCase();
  if (value('display') === 'none' || value('visibility') === 'hidden' || value('mso-hide') === 'all') {
    return true;
  }
  if (value('opacity') !== '' && Number.parseFloat(value('opacity')) === 0) return true;
  const zero = (property: string) => /^0(\.0*)?(px|pt|em|rem|%)?$/.test(value(property));
  return zero('font-size') || (zero('max-height') && value('overflow') === 'hidden');
}

/** Text a reader sees: platform code removed, spaces collapsed; '' when it holds no letter or digit. */
function readableRun(text: string): string {
  const words = text.replace(platformCode, ' ').replace(/\s+/g, ' ').trim();
  return /[\p{L}\p{N}]/u.test(words) ? words : '';
}

function quoted(text: string): string {
  const characters = [...text];
  return `"${characters.length > 40 ? `${characters.slice(0, 39).join('').trimEnd()}…` : text}"`;
}

/** A ratio as WCAG tools print it, never rounded up to the threshold it misses. */
function ratioText(ratio: number): string {
  const truncated = Math.floor(ratio * 10) / 10;
  return `${Number.isInteger(truncated) ? truncated : truncated.toFixed(1)}:1`;
}

/**
 * The readability problems of one locale's rendered HTML, in one pass over it. Each distinct text
 * and background colour pair below its threshold is told once (with the first text it was found
 * in), each vague link once per text and target.
 */
export function readabilityProblems(html: string, locale: string): ReadabilityProblem[] {
  const problems: ReadabilityProblem[] = [];
  const warn = (code: ReadabilityProblemCode, message: string) =>
    problems.push({ code, severity: 'warning', component_instance_id: null, message });
  const reportedPairs = new Set<string>();
  const reportedLinks = new Set<string>();

  const root: Frame = {
    name: '#document',
    color: black,
    background: white,
    fontSizePx: 16,
    bold: false,
    hidden: false,
    link: null,
    opensLink: false,
  };
  const stack: Frame[] = [root];
  let linkColor: Rgba = defaultLinkColor;
  let htmlAttributes: Record<string, string> | null = null;
  let bodyAttributes: Record<string, string> | null = null;
  let pendingText = '';
  // Email HTML repeats the same few style attributes; each is parsed once.
  const styles = new Map<string, Map<string, string>>();

  const checkContrast = (text: string, frame: Frame) => {
    if (frame.background === null || frame.color.a === 0) return;
    const background = frame.background;
    const color = frame.color.a < 1 ? blend(frame.color, background) : frame.color;
    const ratio = contrastRatio(color, background);
    const large = isLargeText(frame.fontSizePx, frame.bold);
    const needed = large ? minimumContrast.large : minimumContrast.normal;
    if (ratio >= needed) return;
    const pair = `${hexOf(color)} ${hexOf(background)}`;
    if (reportedPairs.has(pair)) return;
    reportedPairs.add(pair);
    warn(
      readabilityProblemCodes.lowContrast,
      `${quoted(text)} is ${hexOf(color)} on ${hexOf(background)}: contrast ${ratioText(ratio)}, ` +
        `below ${needed}:1 (WCAG AA${large ? ' for large text' : ''})`,
    );
  };

  const flushText = () => {
    if (pendingText === '') return;
    const frame = stack[stack.length - 1] ?? root;
    const text = pendingText;
    pendingText = '';
    if (frame.hidden) return;
    if (frame.link) frame.link.text += text;
    const readable = readableRun(text);
    if (readable !== '') checkContrast(readable, frame);
  };

  const closeLink = (link: LinkRun) => {
    if (link.hasImageWithAlt) return;
    const ariaLabel = normalizedLinkText(link.ariaLabel);
    if (ariaLabel !== '' && !vagueLinkTexts.has(ariaLabel)) return;
    const text = normalizedLinkText(link.text);
    if (!vagueLinkTexts.has(text)) return;
    const key = `${text}\u0000${link.href}`;
    if (reportedLinks.has(key)) return;
    reportedLinks.add(key);
    const shown = link.text.replace(/\s+/g, ' ').trim();
    warn(
      readabilityProblemCodes.vagueLinkText,
      `The link ${quoted(shown)} (${link.href.trim() || 'no target'}) does not say where it leads: ` +
        'people who use screen readers often hear links out of their sentence, so name the destination',
    );
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        flushText();
        const parent = stack[stack.length - 1] ?? root;
        const styleText = attributes.style ?? '';
        let style = styles.get(styleText);
        if (style === undefined) {
          style = parseInlineStyle(styleText);
          styles.set(styleText, style);
        }
        if (name === 'html' && htmlAttributes === null) htmlAttributes = attributes;
        if (name === 'body' && bodyAttributes === null) {
          bodyAttributes = attributes;
          const link = parseCssColor(attributes.link ?? '', true);
          if (link) linkColor = link;
        }

        // Background: the element's own colour (blended over its parent's when translucent), an
        // image of unknown colour, or the parent's.
        let background = parent.background;
        let ownBackground: Rgba | null = parseCssColor(attributes.bgcolor ?? '', true);
        let image = (attributes.background ?? '').trim() !== '';
        const shorthand = style.get('background');
        if (shorthand !== undefined) {
          const parsed = backgroundShorthand(shorthand);
          ownBackground = parsed.color ?? (parsed.image || /^none\b/i.test(shorthand) ? null : ownBackground);
          image = parsed.image;
        }
        const backgroundColor = style.get('background-color');
        if (backgroundColor !== undefined) ownBackground = parseCssColor(backgroundColor) ?? ownBackground;
        const backgroundImage = style.get('background-image');
        if (backgroundImage !== undefined) image = !/^\s*none\s*$/i.test(backgroundImage);
        if (ownBackground && ownBackground.a >= 1) background = ownBackground;
        else if (image) background = null;
        else if (ownBackground && ownBackground.a > 0 && background)
          background = blend(ownBackground, background);

        // Text colour: inline style, then <font color>/<body text>, then a link's default, then inherited.
        let color = parent.color;
        const attributeColor =
          name === 'font' ? attributes.color : name === 'body' ? attributes.text : undefined;
        const styleColor = style.get('color');
        const own =
          (styleColor === undefined ? null : parseCssColor(styleColor)) ??
          (attributeColor === undefined ? null : parseCssColor(attributeColor, true));
        if (own) color = own;
        else if (name === 'a' && attributes.href !== undefined) color = linkColor;

        let fontSizePx = parent.fontSizePx * (relativeSizes[name] ?? 1);
        let bold = boldElements.has(name) || parent.bold;
        if (name === 'font' && attributes.size !== undefined) {
          const size = attributes.size.trim();
          const level = /^[+-]/.test(size) ? 3 + Number.parseInt(size, 10) : Number.parseInt(size, 10);
          if (!Number.isNaN(level))
            fontSizePx = fontTagSizes[Math.min(7, Math.max(1, level)) - 1] ?? fontSizePx;
        }
        const font = style.get('font');
        if (font !== undefined) {
          const parsed = fontShorthand(font, parent.fontSizePx);
          if (parsed.sizePx !== null) fontSizePx = parsed.sizePx;
          if (parsed.bold !== null) bold = parsed.bold;
        }
        const fontSize = style.get('font-size');
        if (fontSize !== undefined) fontSizePx = fontSizeOf(fontSize, parent.fontSizePx) ?? fontSizePx;
        const fontWeight = style.get('font-weight');
        if (fontWeight !== undefined) bold = isBoldWeight(fontWeight, bold);

        const hidden = parent.hidden || isHidden(name, attributes, style);
        let link = parent.link;
        let opensLink = false;
        if (name === 'a' && attributes.href !== undefined && link === null) {
          link = {
            href: attributes.href,
            text: '',
            ariaLabel: attributes['aria-label'] ?? '',
            hasImageWithAlt: false,
          };
          opensLink = true;
        }
        if (name === 'img' && link && !hidden && (attributes.alt ?? '').trim() !== '')
          link.hasImageWithAlt = true;
        stack.push({ name, color, background, fontSizePx, bold, hidden, link, opensLink });
      },
      ontext(text) {
        pendingText += text;
      },
      onclosetag() {
        flushText();
        const frame = stack.pop();
        if (frame?.opensLink && frame.link && !frame.hidden) closeLink(frame.link);
        if (stack.length === 0) stack.push(root);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  flushText();

  languageProblems(locale, htmlAttributes, bodyAttributes, warn);
  return problems;
}

/**
 * A document that does not declare its language, or (left to right) its direction. A fragment (no
 * <html>, no <body>) is left alone: the sending platform wraps it in its own document.
 */
function languageProblems(
  locale: string,
  htmlAttributes: Record<string, string> | null,
  bodyAttributes: Record<string, string> | null,
  warn: (code: ReadabilityProblemCode, message: string) => void,
): void {
  if (htmlAttributes === null && bodyAttributes === null) return;
  const attribute = (name: string) =>
    (htmlAttributes?.[name] ?? '').trim() || (bodyAttributes?.[name] ?? '').trim();
  const lang = attribute('lang');
  if (lang === '') {
    warn(
      readabilityProblemCodes.missingLang,
      `The HTML sets no lang on <html>: screen readers cannot tell it is ${locale} and may read it in the wrong ` +
        'language; use lang="{{ render_context.email.locale }}" in the container’s template',
    );
  } else if (primaryLanguage(lang) !== primaryLanguage(locale)) {
    warn(
      readabilityProblemCodes.missingLang,
      `The HTML says lang="${lang}" but this is ${locale}: screen readers will read it in the wrong language; ` +
        'use lang="{{ render_context.email.locale }}" in the container’s template',
    );
  }
  // A right-to-left locale without dir="rtl" is its own warning (missing_rtl_direction).
  if (textDirectionOf(locale) === 'rtl' || attribute('dir') !== '') return;
  warn(
    readabilityProblemCodes.missingDir,
    'The HTML sets no dir on <html> or <body>: use dir="{{ render_context.email.text_direction }}" in the ' +
      'container’s template so every mail client lays it out in the locale’s direction',
  );
}

function primaryLanguage(tag: string): string {
  return (tag.trim().toLowerCase().split(/[-_]/)[0] ?? '').trim();
}
