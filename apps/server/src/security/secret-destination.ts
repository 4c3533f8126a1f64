import { Type } from 'typebox';

/**
 * A stored secret (a feed's or MCP server's headers, OAuth tokens, a connector's keys, the AI
 * provider's key) is bound to the origin it was entered for. Whoever may change an address may
 * not thereby send someone else's secret to a server of their own: moving the address to another
 * scheme, host or port forgets the secrets the same change does not supply again, and the answer
 * lists them in `secrets_cleared`.
 */

/** `scheme://host:port` of a URL (default ports left out, as browsers do), or null for no URL. */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Whether secrets stored for `before` may still be sent after the address became `after`. */
export function sameDestination(
  before: string | null | undefined,
  after: string | null | undefined,
): boolean {
  const from = originOf(before);
  return from !== null && from === originOf(after);
}

/** The response field every resource with bound secrets answers a change with. */
export const SecretsCleared = Type.Optional(
  Type.Array(Type.String(), {
    description:
      'Only in the answer to a change: the stored secrets the change removed, by field (e.g. `headers.Authorization`, ' +
      '`api_key`), because the address moved to another scheme, host or port and they were not sent again with it. ' +
      'A secret is never sent to an address it was not entered for: enter them again for the new address. ' +
      'Empty when nothing was removed.',
  }),
);
