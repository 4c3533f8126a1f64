import { Parser } from 'htmlparser2';
import type { CustomStyle, FieldDefinition, RichTextMark, RichTextMarkName } from '../fields/types.ts';
import { escapeHtml } from './html-escape.ts';
import { LruCache } from './lru-cache.ts';

/**
 * Rich text values come from an editor (and from paste, imports and the API), so they are
 * rebuilt from an allow-list rather than filtered: the output only ever contains the tags and
 * classes below, whatever the input held.
 *
 *   p, br                                   paragraphs and line breaks
 *   strong.es-bold  (also from <b>)          mark `bold`
 *   em.es-italic    (also from <i>)          mark `italic`
 *   a.es-link       href http(s):, mailto:, tel: only      mark `link`
 *   ul.es-bullet-list, ol.es-ordered-list, li.es-list-item  marks `bullet_list`, `numbered_list`
 *   span.es-custom-style.es-custom-style-{name}   only names in the field's custom_styles_names
 *
 * A tag that is not allowed is unwrapped (its text kept); script, style and similar elements
 * are dropped with their content. A mark the field does not enable is unwrapped too. A mark's
 * `custom_style_name` and a custom-style span get the style's CSS inline, because most email
 * clients ignore classes.
 */
export interface RichTextOptions {
  /** The field's marks; `null` turns every mark off, `undefined` leaves all of them on. */
  marks?: FieldDefinition['marks'];
  /** Custom styles the field offers (`custom_styles_names`). */
  allowedCustomStyleNames?: readonly string[];
  /** The design system's custom styles, with the brand profile's replacing same-named ones. */
  customStyles?: readonly CustomStyle[];
}

const droppedWithContent = new Set([
  'script',
  'style',
  'head',
  'title',
  'template',
  'iframe',
  'object',
  'embed',
  'noscript',
  'textarea',
  'select',
  'svg',
  'math',
  'xml',
]);

const markTags: Record<string, { mark: RichTextMarkName; tag: string; className: string }> = {
  strong: { mark: 'bold', tag: 'strong', className: 'es-bold' },
  b: { mark: 'bold', tag: 'strong', className: 'es-bold' },
  em: { mark: 'italic', tag: 'em', className: 'es-italic' },
  i: { mark: 'italic', tag: 'em', className: 'es-italic' },
  ul: { mark: 'bullet_list', tag: 'ul', className: 'es-bullet-list' },
  ol: { mark: 'numbered_list', tag: 'ol', className: 'es-ordered-list' },
};

const safeHref = /^(?:https?:|mailto:|tel:)/i;

function markOf(options: RichTextOptions, name: RichTextMarkName): RichTextMark | null {
  if (options.marks === undefined) return { enabled: true };
  if (options.marks === null) return null;
  const mark = options.marks[name];
  return mark?.enabled === true ? mark : null;
}

function cssOf(options: RichTextOptions, styleName: string | null | undefined): string | null {
  if (!styleName) return null;
  return options.customStyles?.find((style) => style.name === styleName)?.style ?? null;
}

function styleAttribute(css: string | null): string {
  return css === null ? '' : ` style="${escapeHtml(css.trim())}"`;
}

function customStyleNameOf(attributes: Record<string, string>): string | null {
  const fromData = attributes['data-custom-style'];
  if (fromData) return fromData;
  const classes = (attributes.class ?? '').split(/\s+/);
  if (!classes.includes('es-custom-style')) return null;
  const named = classes.find((name) => name.startsWith('es-custom-style-'));
  return named ? named.slice('es-custom-style-'.length) : null;
}

export function sanitizeRichText(html: string, options: RichTextOptions = {}): string {
  let output = '';
  // What each open input tag emitted, so its closing tag emits the matching close (or nothing).
  const closings: (string | null)[] = [];
  let droppedDepth = 0;

  const open = (name: string, attributes: Record<string, string>): string | null => {
    if (name === 'p') {
      output += '<p>';
      return '</p>';
    }
    if (name === 'li') {
      output += '<li class="es-list-item">';
      return '</li>';
    }
    const markTag = markTags[name];
    if (markTag) {
      const mark = markOf(options, markTag.mark);
      if (!mark) return null;
      output += `<${markTag.tag} class="${markTag.className}"${styleAttribute(cssOf(options, mark.custom_style_name))}>`;
      return `</${markTag.tag}>`;
    }
    if (name === 'a') {
      const mark = markOf(options, 'link');
      const href = (attributes.href ?? '').trim();
      if (!mark || !safeHref.test(href)) return null;
      output += `<a class="es-link" href="${escapeHtml(href)}"${styleAttribute(cssOf(options, mark.custom_style_name))}>`;
      return '</a>';
    }
    if (name === 'span') {
      const styleName = customStyleNameOf(attributes);
      if (styleName === null || !options.allowedCustomStyleNames?.includes(styleName)) return null;
      const css = cssOf(options, styleName);
      if (css === null) return null;
      output +=
        `<span class="es-custom-style es-custom-style-${escapeHtml(styleName)}"` +
        ` data-custom-style="${escapeHtml(styleName)}"${styleAttribute(css)}>`;
      return '</span>';
    }
    return null;
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (droppedDepth > 0 || droppedWithContent.has(name)) {
          droppedDepth += 1;
          closings.push(null);
          return;
        }
        if (name === 'br') {
          output += '<br>';
          closings.push(null);
          return;
        }
        closings.push(open(name, attributes));
      },
      ontext(text) {
        if (droppedDepth === 0) output += escapeHtml(text).replaceAll('\u00a0', '&nbsp;');
      },
      onclosetag() {
        const closing = closings.pop();
        if (droppedDepth > 0) {
          droppedDepth -= 1;
          return;
        }
        if (closing) output += closing;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  // Quotes need no escaping in element content; keeping them readable keeps copy diffable.
  return output.replaceAll('&quot;', '"').replaceAll('&#39;', "'");
}

/** Characters (inputs, options and outputs) the sanitised rich text cache may hold. */
const sanitizedCacheBudget = 4_000_000;
const sanitized = new LruCache<string, string>(
  sanitizedCacheBudget,
  (key, value) => key.length + value.length,
);

/**
 * `sanitizeRichText`, remembered: a render sanitises every rich text value again, and most of them
 * have not changed since the last render. The key holds the options by value (JSON) and the
 * input, so a field's marks or a custom style edited in place between two renders still gets a
 * fresh result. JSON text has no raw line break, so the first one ends the options.
 */
export function sanitizeRichTextCached(html: string, options: RichTextOptions = {}): string {
  const key = `${JSON.stringify([
    options.marks === undefined ? 'all marks' : options.marks,
    options.allowedCustomStyleNames ?? [],
    options.customStyles ?? [],
  ])}\n${html}`;
  const cached = sanitized.get(key);
  if (cached !== undefined) return cached;
  const result = sanitizeRichText(html, options);
  sanitized.set(key, result);
  return result;
}

/** The text a reader sees (for min/max content length and "blank"), tags and entities resolved. */
export function richTextContent(html: string): string {
  let text = '';
  let droppedDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (droppedDepth > 0 || droppedWithContent.has(name)) droppedDepth += 1;
      },
      ontext(chunk) {
        if (droppedDepth === 0) text += chunk;
      },
      onclosetag(name) {
        if (droppedDepth > 0) droppedDepth -= 1;
        else if (name === 'p' || name === 'li' || name === 'br') text += '\n';
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return text.replace(/\s+/g, ' ').trim();
}
