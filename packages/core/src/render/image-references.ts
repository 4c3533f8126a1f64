import { decodeHtmlAttribute } from '../checks/html-tags.ts';

/**
 * The images an HTML email shows, found and rewritten without a DOM (core runs in Node and in the
 * browser alike): `src` (img, Outlook's v:fill and v:image, also inside conditional comments),
 * `srcset` candidates, `background` and `poster` attributes, and `url(...)` in style attributes and
 * `<style>` elements. Links (`href`) are not images the email shows and are left alone.
 */

/** Answers the URL an image URL becomes, or undefined to leave it as it is. */
export type ImageUrlReplacer = (url: string) => string | undefined;

const tagPattern = /<([a-zA-Z][a-zA-Z0-9:-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const attributePattern = /([^\s=/>"']+)(?:(\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;
const styleElementPattern = /(<style\b(?:[^>"']|"[^"]*"|'[^']*')*>)([\s\S]*?)(<\/style\s*>)/gi;
/** A CSS `url()`: quoted either way, or bare. */
const cssUrlPattern = /(url\(\s*)(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))(\s*\))/gi;
const urlAttributes = new Set(['src', 'background', 'poster']);

/** A `url()` of an `@import` rule or an `@font-face` block loads a style sheet or a font, not an image. */
function loadsNoImage(css: string, offset: number): boolean {
  const before = css.slice(0, offset);
  const statement = before.slice(
    Math.max(before.lastIndexOf(';'), before.lastIndexOf('{'), before.lastIndexOf('}')) + 1,
  );
  if (/@import\b/i.test(statement)) return true;
  const blockStart = before.lastIndexOf('{');
  if (blockStart < 0 || before.lastIndexOf('}') > blockStart) return false;
  const selector = before.slice(
    Math.max(before.lastIndexOf('}', blockStart), before.lastIndexOf(';', blockStart)) + 1,
    blockStart,
  );
  return /@font-face\b/i.test(selector);
}

/** Rewrites the URLs of the CSS `url()`s of a style sheet or style attribute (already decoded). */
function rewriteCss(css: string, replace: ImageUrlReplacer): string {
  return css.replace(
    cssUrlPattern,
    (
      whole,
      open: string,
      double?: string,
      single?: string,
      bare?: string,
      close?: string,
      offset?: number,
    ) => {
      const url = (double ?? single ?? bare ?? '').trim();
      if (url === '' || loadsNoImage(css, offset ?? 0)) return whole;
      const replaced = replace(url);
      if (replaced === undefined || replaced === url) return whole;
      const quote = double !== undefined ? '"' : single !== undefined ? "'" : '';
      return `${open}${quote}${replaced}${quote}${close ?? ')'}`;
    },
  );
}

/**
 * Rewrites the URLs of a `srcset` (already decoded): comma-separated candidates, each a URL and an
 * optional descriptor (`2x`, `600w`). Separators and descriptors stay as they are.
 */
function rewriteSrcset(srcset: string, replace: ImageUrlReplacer): string {
  let result = '';
  let position = 0;
  while (position < srcset.length) {
    const separators = /^[\s,]*/.exec(srcset.slice(position))?.[0] ?? '';
    result += separators;
    position += separators.length;
    if (position >= srcset.length) break;
    let url = /^\S+/.exec(srcset.slice(position))?.[0] ?? '';
    // A URL ending in commas has no descriptor: the commas separate it from the next candidate.
    const trailingCommas = /,+$/.exec(url)?.[0] ?? '';
    url = url.slice(0, url.length - trailingCommas.length);
    position += url.length;
    result += replace(url) ?? url;
    if (trailingCommas !== '') continue;
    // The descriptor runs to the next comma outside parentheses.
    let depth = 0;
    const start = position;
    while (position < srcset.length) {
      const character = srcset[position];
      if (character === '(') depth += 1;
      else if (character === ')') depth = Math.max(0, depth - 1);
      else if (character === ',' && depth === 0) break;
      position += 1;
    }
    result += srcset.slice(start, position);
  }
  return result;
}

/** An attribute value written back: quoted as it was (an unquoted one gets double quotes). */
function encodeAttribute(value: string, quote: '"' | "'"): string {
  const escaped = value.replaceAll('&', '&amp;');
  return quote === '"' ? escaped.replaceAll('"', '&quot;') : escaped.replaceAll("'", '&#39;');
}

function rewriteAttributes(attributes: string, replace: ImageUrlReplacer): string {
  return attributes.replace(
    attributePattern,
    (whole, rawName: string, equals?: string, double?: string, single?: string, bare?: string) => {
      const raw = double ?? single ?? bare;
      if (raw === undefined || equals === undefined) return whole;
      const name = rawName.toLowerCase();
      const value = decodeHtmlAttribute(raw);
      let rewritten: string;
      if (urlAttributes.has(name)) {
        const url = value.trim();
        const replaced = url === '' ? undefined : replace(url);
        rewritten = replaced === undefined ? value : replaced;
      } else if (name === 'srcset') rewritten = rewriteSrcset(value, replace);
      else if (name === 'style') rewritten = rewriteCss(value, replace);
      else return whole;
      if (rewritten === value) return whole;
      const quote = single !== undefined ? "'" : '"';
      return `${rawName}${equals}${quote}${encodeAttribute(rewritten, quote)}${quote}`;
    },
  );
}

/**
 * The HTML with every image URL it shows passed through `replace`; what `replace` leaves
 * (answers undefined for) and everything that is not an image URL stays byte for byte.
 */
export function rewriteImageUrls(html: string, replace: ImageUrlReplacer): string {
  const withStyleSheets = html.replace(
    styleElementPattern,
    (_whole, open: string, css: string, close: string) => `${open}${rewriteCss(css, replace)}${close}`,
  );
  return withStyleSheets.replace(tagPattern, (whole, name: string, attributes: string) => {
    const rewritten = rewriteAttributes(attributes, replace);
    return rewritten === attributes ? whole : `<${name}${rewritten}>`;
  });
}

/** Every image URL the HTML shows, each once, in the order first shown. */
export function imageUrlsIn(html: string): string[] {
  const urls = new Set<string>();
  rewriteImageUrls(html, (url) => {
    urls.add(url);
    return undefined;
  });
  return [...urls];
}
