/**
 * A comment mentions a person with a token shaped like a markdown link:
 * `@[Ada Lovelace](user:42)`. The name is what readers see; the id is who is told.
 * (The web app's composer writes these tokens and renders them as highlighted names.)
 */
const mentionToken = /@\[([^\]\n]{1,200})\]\(user:(\d{1,10})\)/g;

export interface MentionToken {
  /** The whole token as written, to name it in a refusal. */
  token: string;
  name: string;
  userId: number;
}

/** Every mention token of a body, in order (a person mentioned twice appears twice). */
export function mentionTokens(body: string): MentionToken[] {
  return [...body.matchAll(mentionToken)].map((match) => ({
    token: match[0],
    name: match[1] ?? '',
    userId: Number(match[2]),
  }));
}

/** The body as plain words: each token becomes `@Name` (what mails and notifications quote). */
export function bodyAsText(body: string): string {
  return body.replace(mentionToken, (_token, name: string) => `@${name}`);
}
