/** Parses a JSON object typed by hand; the message says what is wrong in words. */
export function parseTokens(text: string): { tokens: Record<string, unknown> } | { problem: string } {
  if (text.trim() === '') return { tokens: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { problem: 'must be a JSON object, e.g. { "colors": { "primary": "#1890ff" } }' };
    }
    return { tokens: parsed as Record<string, unknown> };
  } catch (error) {
    return { problem: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
