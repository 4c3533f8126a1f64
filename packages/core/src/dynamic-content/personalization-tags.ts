import { escapeHtml } from '../render/html-escape.ts';

/**
 * Personalization tags inside content values.
 *
 * The token is `{tag:<id>}`, e.g. `{tag:12}`, written inside text, rich_text, url, subject and
 * preheader values (and in component templates). It is made of characters that HTML escaping,
 * the rich-text sanitiser and URL handling all leave alone, and it is none of the sending
 * platforms' syntaxes (no `{{`, `{%`, `%%` or `[[`), so a value holding it is never mistaken
 * for platform code before it is compiled. The render replaces each token after the templates
 * ran:
 *   - preview: the tag's example value, else its default value (HTML-escaped in HTML output); the
 *     editor preview can show the tags' names instead (`showPersonalizationTagNamesInHtml`);
 *   - export with a dynamic content profile: that profile's value, raw (it is platform code);
 *   - export without a profile, or a profile without a value: the default value (escaped).
 */

export interface PersonalizationTagDefinition {
  id: number;
  label?: string;
  default_value: string;
  example_value: string;
  /** Per dynamic content profile id: the platform's code, e.g. `{{firstName}}`. */
  dynamic_content_profile_values?: Record<string, string>;
}

/** The token that stands for a tag in content. */
export function personalizationTagToken(id: number): string {
  return `{tag:${id}}`;
}

const tokenPattern = /\{tag:(\d+)\}/g;

/** The ids of the tags a text refers to, in order of first use. */
export function personalizationTagIdsIn(text: string): number[] {
  const ids = new Set<number>();
  for (const match of text.matchAll(tokenPattern)) ids.add(Number(match[1]));
  return [...ids];
}

/** A run of text, or one tag's token, as content splits into them. */
export type PersonalizationTagSegment = { text: string } | { tagId: number };

const oneToken = /\{tag:(\d+)\}/y;

/**
 * Splits a value into text runs and tag tokens (what an editor shows as text and chips). Only
 * canonical tokens count: `{tag:007}` or an id beyond a safe integer stays text, so joining the
 * segments gives back exactly the value that was split.
 */
export function splitPersonalizationTagTokens(text: string): PersonalizationTagSegment[] {
  const segments: PersonalizationTagSegment[] = [];
  let run = '';
  let index = 0;
  while (index < text.length) {
    const open = text.indexOf('{tag:', index);
    if (open === -1) break;
    oneToken.lastIndex = open;
    const match = oneToken.exec(text);
    const digits = match?.[1];
    const id = digits === undefined ? Number.NaN : Number(digits);
    if (match && digits !== undefined && Number.isSafeInteger(id) && String(id) === digits) {
      run += text.slice(index, open);
      if (run !== '') segments.push({ text: run });
      run = '';
      segments.push({ tagId: id });
      index = open + match[0].length;
    } else {
      run += text.slice(index, open + 1);
      index = open + 1;
    }
  }
  run += text.slice(index);
  if (run !== '') segments.push({ text: run });
  return segments;
}

/** The stored value of segments: text runs as written, each tag as its token. */
export function joinPersonalizationTagSegments(segments: readonly PersonalizationTagSegment[]): string {
  return segments
    .map((segment) => ('tagId' in segment ? personalizationTagToken(segment.tagId) : segment.text))
    .join('');
}

/**
 * A text's length as its editor shows it: characters as people count them (an emoji is one) and
 * each tag one, as it is one chip. What a tag becomes at send time is unknown, so a length limit
 * cannot count its value; counting its stored token (`{tag:12}`, eight) would make no sense either.
 */
export function lengthWithTagsAsOne(text: string): number {
  let length = 0;
  for (const segment of splitPersonalizationTagTokens(text))
    length += 'tagId' in segment ? 1 : [...segment.text].length;
  return length;
}

/** Characters after which a tag needs no space: whitespace and what opens a phrase or a word. */
const opensWord = /^[\s\p{Ps}\p{Pi}"'¡¿/\-–—@#]$/u;
/** Characters before which a tag needs no space: whitespace and what closes a phrase or a word. */
const closesWord = /^[\s\p{Pe}\p{Pf}"'.,;:!?…/\-–—%]$/u;

/**
 * The spaces an inserted tag needs to read as a word: one before it unless the character before is
 * whitespace or opens a phrase (`(`, a quote, ...), one after it unless the character after is
 * whitespace or closes one (`.`, `,`, `!`, ...). `null` is the start or end of the text (no space
 * there); a neighbouring tag counts as a word. Values read as addresses (url fields) take no spaces.
 */
export function spacingAroundTag(
  before: string | { tag: true } | null,
  after: string | { tag: true } | null,
): { before: string; after: string } {
  const needsSpace = (neighbour: string | { tag: true } | null, noSpace: RegExp) =>
    neighbour !== null && (typeof neighbour !== 'string' || (neighbour !== '' && !noSpace.test(neighbour)));
  return {
    before: needsSpace(before, opensWord) ? ' ' : '',
    after: needsSpace(after, closesWord) ? ' ' : '',
  };
}

/**
 * How tokens are replaced: `example` (previews) by the example value, else the default value;
 * `names` (the editor preview showing tag names) by `{<label>}`; `export` by the profile's value,
 * else the default value.
 */
export type TagSubstitution =
  | { kind: 'example' }
  | { kind: 'names' }
  | { kind: 'export'; profileId: string | null | undefined };

/** What the editor calls a tag whose id no tag has (it was deleted). */
export const unknownPersonalizationTagLabel = 'Unknown tag';

/** The name a preview showing tag names writes for a tag: `{First name}`. */
export function personalizationTagName(tag: PersonalizationTagDefinition | undefined): string {
  if (!tag) return `{${unknownPersonalizationTagLabel}}`;
  return `{${tag.label?.trim() || `Tag ${tag.id}`}}`;
}

/**
 * Replaces every token. `escape` is applied to example and default values and names (plain
 * text); a profile's value is platform code and is inserted as written. Tokens of unknown tags
 * are reported through `onUnknown` and removed (shown as `{Unknown tag}` with `names`).
 */
export function substitutePersonalizationTags(
  text: string,
  tags: readonly PersonalizationTagDefinition[],
  substitution: TagSubstitution,
  options: { escape?: (value: string) => string; onUnknown?: (id: number) => void } = {},
): string {
  if (!text.includes('{tag:')) return text;
  const byId = new Map(tags.map((tag) => [tag.id, tag]));
  const escapeText = options.escape ?? ((value: string) => value);
  return text.replace(tokenPattern, (_token, digits: string) => {
    const tag = byId.get(Number(digits));
    if (!tag) options.onUnknown?.(Number(digits));
    if (substitution.kind === 'names') return escapeText(personalizationTagName(tag));
    if (!tag) return '';
    if (substitution.kind === 'example') return escapeText(tag.example_value || tag.default_value);
    const profileValue =
      substitution.profileId === null || substitution.profileId === undefined
        ? undefined
        : tag.dynamic_content_profile_values?.[substitution.profileId];
    return profileValue !== undefined && profileValue !== '' ? profileValue : escapeText(tag.default_value);
  });
}

/**
 * Where a token sits in HTML: text between elements (a name may be styled there), or inside a
 * start tag, a comment or an element whose content is raw text (only plain text fits there).
 */
const htmlPieces =
  /<!--[\s\S]*?(?:-->|$)|<(script|style|title|textarea)\b(?:[^>"']|"[^"]*"|'[^']*')*>[\s\S]*?(?:<\/\1\s*>|$)|<\/?[a-zA-Z](?:[^>"']|"[^"]*"|'[^']*')*>?|[^<]+|</g;

/** The class of the span a preview showing tag names puts around a name in HTML text. */
export const personalizationTagNameClass = 'es-personalization-tag-name';
// Text at 5.4:1 or more against its background (WCAG AA).
const nameStyle =
  'display:inline-block;padding:0 6px;border-radius:10px;background:#e7f5ff;color:#1864ab;font-family:inherit;font-size:0.9em;line-height:1.4;white-space:nowrap';
const unknownNameStyle = nameStyle.replace(
  'background:#e7f5ff;color:#1864ab',
  'background:#fff4e6;color:#b03a0a',
);

/**
 * The editor preview showing tag names: each token in text becomes a chip-like span holding
 * `{<label>}`; in attributes (a link's address), comments and raw-text elements it becomes the
 * plain name, so the markup stays valid.
 */
export function showPersonalizationTagNamesInHtml(
  html: string,
  tags: readonly PersonalizationTagDefinition[],
  onUnknown?: (id: number) => void,
): string {
  if (!html.includes('{tag:')) return html;
  const byId = new Map(tags.map((tag) => [tag.id, tag]));
  return html.replace(htmlPieces, (piece) => {
    if (!piece.includes('{tag:')) return piece;
    if (piece.startsWith('<'))
      return substitutePersonalizationTags(piece, tags, { kind: 'names' }, { escape: escapeHtml, onUnknown });
    return piece.replace(tokenPattern, (_token, digits: string) => {
      const tag = byId.get(Number(digits));
      if (!tag) onUnknown?.(Number(digits));
      return `<span class="${personalizationTagNameClass}" style="${tag ? nameStyle : unknownNameStyle}">${escapeHtml(personalizationTagName(tag))}</span>`;
    });
  });
}
