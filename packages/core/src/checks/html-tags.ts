/**
 * The attributes of some tags of an HTML document, read without a DOM (core runs in Node and in
 * the browser alike). Good enough for the checks: quoted attribute values may hold `>`, and
 * character references in values are decoded.
 */
export interface HtmlTag {
  name: string;
  /** Lower-cased attribute names; an attribute written without a value has the value ''. */
  attributes: Map<string, string>;
}

const tagPattern = /<([a-zA-Z][a-zA-Z0-9:-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const attributePattern = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;
const namedReferences: Record<string, string> = {
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
};

/** Decodes the character references HTML attribute values commonly carry. */
export function decodeHtmlAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (reference, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : reference;
    }
    return namedReferences[body.toLowerCase()] ?? reference;
  });
}

/** Every opening tag named one of `names` (case-insensitive), in document order. */
export function htmlTags(html: string, names: readonly string[]): HtmlTag[] {
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  const tags: HtmlTag[] = [];
  for (const match of html.matchAll(tagPattern)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!wanted.has(name)) continue;
    const attributes = new Map<string, string>();
    for (const attribute of (match[2] ?? '').matchAll(attributePattern)) {
      const key = (attribute[1] ?? '').toLowerCase();
      if (attributes.has(key)) continue;
      attributes.set(key, decodeHtmlAttribute(attribute[2] ?? attribute[3] ?? attribute[4] ?? ''));
    }
    tags.push({ name, attributes });
  }
  return tags;
}
