/** Makes user text literal inside a LIKE/ILIKE pattern: `%`, `_` and `\` match only themselves. */
export function escapeLikePattern(text: string): string {
  return text.replaceAll(/[\\%_]/g, (character) => `\\${character}`);
}
