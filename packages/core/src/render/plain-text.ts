import { convert } from 'html-to-text';

const looksLikeHtml = /<(?:[a-z][a-z0-9-]*|!doctype|!--)[\s/>]/i;

/**
 * The plain-text version of a rendering. HTML is converted with html-to-text (links as
 * "text [url]", images skipped, wrapped at 78 columns); output that is already plain text
 * (templates that branch on `render_context.output_format == "plaintext"`) is kept as written.
 */
export function toPlainText(rendered: string): string {
  if (!looksLikeHtml.test(rendered)) return normaliseLines(rendered);
  const text = convert(rendered, {
    wordwrap: 78,
    selectors: [
      { selector: 'img', format: 'skip' },
      // Hidden in the HTML (a preheader, mobile-only copies) is hidden in the text too.
      { selector: '[style*="display: none"]', format: 'skip' },
      { selector: '[style*="display:none"]', format: 'skip' },
      { selector: 'a', options: { hideLinkIfSameAsText: true } },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'table', format: 'block' },
      { selector: 'tr', format: 'block' },
      { selector: 'td', format: 'block' },
      { selector: 'th', format: 'block' },
    ],
  });
  return normaliseLines(text);
}

function normaliseLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
