/**
 * Personalization tags inside content values.
 *
 * The token is `{tag:<id>}`, e.g. `{tag:12}`, written inside text, rich_text, url, subject and
 * preheader values (and in component templates). It is made of characters that HTML escaping,
 * the rich-text sanitiser and URL handling all leave alone, and it is none of the sending
 * platforms' syntaxes (no `{{`, `{%`, `%%` or `[[`), so a value holding it is never mistaken
 * for platform code before it is compiled. The render replaces each token after the templates
 * ran:
 *   - preview: the tag's example value (HTML-escaped in HTML output);
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

export type TagSubstitution = { kind: 'example' } | { kind: 'export'; profileId: string | null | undefined };

/**
 * Replaces every token. `escape` is applied to example and default values (plain text); a
 * profile's value is platform code and is inserted as written. Tokens of unknown tags are
 * removed and reported through `onUnknown`.
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
    if (!tag) {
      options.onUnknown?.(Number(digits));
      return '';
    }
    if (substitution.kind === 'example') return escapeText(tag.example_value);
    const profileValue =
      substitution.profileId === null || substitution.profileId === undefined
        ? undefined
        : tag.dynamic_content_profile_values?.[substitution.profileId];
    return profileValue !== undefined && profileValue !== '' ? profileValue : escapeText(tag.default_value);
  });
}
