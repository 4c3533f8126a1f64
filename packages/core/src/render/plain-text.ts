import type { Document } from 'domhandler';
import { compile } from 'html-to-text';
import { plainTextOfDocument } from './plain-text-writer.ts';

const looksLikeHtml = /<(?:[a-z][a-z0-9-]*|!doctype|!--)[\s/>]/i;

const wordwrap = 78;
/**
 * How elements read in the text (every element not named here is inline). `plain-text-writer.ts`
 * writes what html-to-text makes with exactly these options: change both together.
 */
const formats = [
  { selector: 'a', options: { hideLinkIfSameAsText: true } },
  { selector: 'h1', options: { uppercase: false } },
  { selector: 'h2', options: { uppercase: false } },
  { selector: 'h3', options: { uppercase: false } },
  { selector: 'table', format: 'block' },
  { selector: 'tr', format: 'block' },
  { selector: 'td', format: 'block' },
  { selector: 'th', format: 'block' },
];
/** Hidden in the HTML (a preheader, mobile-only copies) is hidden in the text too; images are left out. */
const hiddenStyles = ['display: none', 'display:none'];

// Compiled once: html-to-text's `convert` would merge the options and build its selector tree on
// every call.
const htmlToText = compile({
  wordwrap,
  selectors: [
    { selector: 'img', format: 'skip' },
    ...hiddenStyles.map((style) => ({ selector: `[style*="${style}"]`, format: 'skip' })),
    ...formats,
  ],
});

/**
 * The plain-text version of a rendering. HTML is converted with html-to-text (links as
 * "text [url]", images skipped, wrapped at 78 columns); output that is already plain text
 * (templates that branch on `render_context.output_format == "plaintext"`) is kept as written.
 */
export function toPlainText(rendered: string): string {
  if (!looksLikeHtml.test(rendered)) return normaliseLines(rendered);
  return normaliseLines(htmlToText(rendered));
}

/** What html-to-text makes of `html` before the lines are tidied: what the writer must equal. */
export function htmlToTextUntidied(html: string): string {
  return htmlToText(html);
}

/**
 * `toPlainText(rendered)` for a rendering whose parsed document is at hand (parsed with entities
 * left as written, as `rendered` was serialized from it): written from the document directly
 * (`plain-text-writer.ts`), without html-to-text parsing the markup again. The rare document the
 * writer does not reproduce exactly (SVG, MathML) is converted from `rendered` as `toPlainText` does.
 */
export function toPlainTextOfDocument(rendered: string, document: Document): string {
  if (!looksLikeHtml.test(rendered)) return normaliseLines(rendered);
  // html-to-text cuts longer input (its `maxInputLength`) before parsing it.
  const written = rendered.length > maxInputLength ? null : plainTextOfDocument(document);
  return normaliseLines(written ?? htmlToText(rendered));
}

const maxInputLength = 1 << 24;

function normaliseLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
