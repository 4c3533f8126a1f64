/**
 * Mentions in a comment body are tokens shaped like markdown links, `@[Ada Lovelace](user:42)`:
 * the name is what readers see, the id is who the server notifies. The composer writes them; the
 * thread shows them as highlighted names, never as raw tokens.
 */
const mentionPattern = /@\[([^\]\n]{1,200})\]\(user:(\d{1,10})\)/g;

export type BodySegment = { kind: 'text'; text: string } | { kind: 'mention'; name: string; userId: number };

/** The body cut into plain text and mentions, in order. */
export function parseCommentBody(body: string): BodySegment[] {
  const segments: BodySegment[] = [];
  let last = 0;
  for (const match of body.matchAll(mentionPattern)) {
    const start = match.index ?? 0;
    if (start > last) segments.push({ kind: 'text', text: body.slice(last, start) });
    segments.push({ kind: 'mention', name: match[1] ?? '', userId: Number(match[2]) });
    last = start + match[0].length;
  }
  if (last < body.length) segments.push({ kind: 'text', text: body.slice(last) });
  return segments;
}

/** The token that mentions a person; brackets and line breaks in the name would end it early. */
export function mentionToken(name: string, userId: number): string {
  const safeName = name.replace(/[[\]\n\r]/g, ' ').trim() || `user ${userId}`;
  return `@[${safeName}](user:${userId})`;
}

/**
 * The mention being typed at the caret: an `@` at the start or after a space, followed by up to
 * 40 characters without a line break or another `@`. Null when the caret is not in one.
 */
export function activeMention(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/\s/.test(before[at - 1] ?? '')) return null;
  const query = before.slice(at + 1);
  if (query.length > 40 || /[\n@[\]]/.test(query)) return null;
  return { start: at, query };
}

/** The text with the mention being typed (from `start` to the caret) replaced by a person's token. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  person: { name: string; userId: number },
): { text: string; caret: number } {
  const token = `${mentionToken(person.name, person.userId)} `;
  const after = text.slice(caret).replace(/^ /, '');
  return { text: text.slice(0, start) + token + after, caret: start + token.length };
}
