import { describe, expect, it } from 'vitest';
import { clearedMessage, movesOrigin } from './secret-destination.ts';

describe('secret destinations', () => {
  it('a move is a change of scheme, host or port, not of the path', () => {
    expect(movesOrigin('https://a.example/x', 'https://a.example/y?z=1')).toBe(false);
    expect(movesOrigin('https://a.example/x', 'https://a.example:8443/x')).toBe(true);
    expect(movesOrigin('https://a.example/x', 'http://a.example/x')).toBe(true);
    expect(movesOrigin('https://a.example/x', 'https://b.example/x')).toBe(true);
    expect(movesOrigin(null, 'https://gateway.example/v1')).toBe(true);
    expect(movesOrigin(null, null)).toBe(false);
  });

  it('names what the server removed', () => {
    expect(clearedMessage([])).toBeNull();
    expect(clearedMessage(['headers.Authorization', 'settings.api_key', 'oauth_tokens'])).toBe(
      'The address moved, so these stored secrets were removed: Authorization, api key, oauth tokens. Enter them again for the new address.',
    );
  });
});
