/**
 * The server binds stored secrets (headers, tokens, keys) to the origin they were entered for: a
 * change that moves a feed, an MCP server, a connector or the AI provider to another scheme, host
 * or port drops them unless the same change gives them again, and its answer lists what it
 * dropped in `secrets_cleared`. The forms warn before such a save and say what the answer said.
 */

/** `scheme://host:port` of a URL, or null when it is not one (yet). */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url.trim()).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Whether saving `next` in place of `saved` moves the address to another origin. */
export function movesOrigin(saved: string | null | undefined, next: string | null | undefined): boolean {
  return (saved ?? '') !== (next ?? '') && originOf(saved) !== originOf(next);
}

/** What a form shows before saving a move while secrets are stored. */
export function moveWarning(secrets: string): string {
  return `Saving this address removes the stored ${secrets}: they are never sent to another address. Enter them again below to keep them.`;
}

/** What a form shows after the server dropped secrets, or null when it dropped none. */
export function clearedMessage(cleared: readonly string[] | undefined): string | null {
  if (!cleared || cleared.length === 0) return null;
  const names = cleared.map((field) => field.replace(/^(headers|settings)\./, '').replaceAll('_', ' '));
  return `The address moved, so these stored secrets were removed: ${names.join(', ')}. Enter them again for the new address.`;
}
