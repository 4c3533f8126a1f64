import type { ChildNode, Document, Element } from 'domhandler';
import { compile } from 'html-to-text';
import { voidElements } from './serialize-html.ts';

const looksLikeHtml = /<(?:[a-z][a-z0-9-]*|!doctype|!--)[\s/>]/i;

const wordwrap = 78;
/** How elements read in the text (every element not named here is inline). */
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
/** For markup already rid of what the skip selectors above match (see `toPlainTextConsuming`). */
const visibleHtmlToText = compile({ wordwrap, selectors: formats });

/**
 * The plain-text version of a rendering. HTML is converted with html-to-text (links as
 * "text [url]", images skipped, wrapped at 78 columns); output that is already plain text
 * (templates that branch on `render_context.output_format == "plaintext"`) is kept as written.
 */
export function toPlainText(rendered: string): string {
  if (!looksLikeHtml.test(rendered)) return normaliseLines(rendered);
  return normaliseLines(htmlToText(rendered));
}

/**
 * `toPlainText(rendered)` for a rendering whose parsed document is at hand (parsed with entities
 * left as written, as `rendered` was serialized from it). html-to-text is given only what it
 * reads, a fraction of an inlined email's markup (every element there carries a long `style`):
 * the `<body>`, without the elements it would skip (images, hidden elements) and the nodes it
 * passes over (comments, scripts, styles), with only the attributes its formatters read, and
 * whitespace-only text as the one space it reads it as.
 */
export function toPlainTextOfDocument(rendered: string, document: Document): string {
  if (!looksLikeHtml.test(rendered)) return normaliseLines(rendered);
  const bodies: Element[] = [];
  collectBodies(document.children, bodies);
  return normaliseLines(
    visibleHtmlToText(whatTextReads(bodies.length > 0 ? bodies : document.children, false)),
  );
}

/** html-to-text converts the outermost `<body>` elements only (its `baseElements`), when there are any. */
function collectBodies(nodes: readonly ChildNode[], bodies: Element[]): void {
  for (const node of nodes) {
    if (node.type !== 'tag') continue;
    if (node.name === 'body') bodies.push(node);
    else collectBodies(node.children, bodies);
  }
}

/** What html-to-text's formatters read (links, list numbering, table spans). */
const readAttributes = ['href', 'start', 'type', 'colspan', 'rowspan'];

/** Text of html-to-text's whitespace characters only (its `whitespaceCharacters`). */
const onlyWhitespace = /^[ \t\r\n\f\u200b]+$/;

/** The markup of `nodes` that html-to-text reads, written as HTML for it to parse. */
function whatTextReads(nodes: readonly ChildNode[], inPre: boolean): string {
  let html = '';
  for (const node of nodes) {
    if (node.type === 'text') {
      // Outside <pre>, html-to-text reads any run of whitespace as one space.
      html += !inPre && onlyWhitespace.test(node.data) ? ' ' : node.data;
      continue;
    }
    // html-to-text walks text and `tag` elements only (not comments, <script>, <style>).
    if (node.type !== 'tag' || node.name === 'img') continue;
    const style = node.attribs.style;
    if (style !== undefined && hiddenStyles.some((hidden) => style.includes(hidden))) continue;
    html += `<${node.name}`;
    for (const name of readAttributes) {
      const value = node.attribs[name];
      if (value !== undefined) html += ` ${name}="${value.replaceAll('"', '&quot;')}"`;
    }
    html += `>${whatTextReads(node.children, inPre || node.name === 'pre')}`;
    if (!voidElements.has(node.name)) html += `</${node.name}>`;
  }
  return html;
}

function normaliseLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
