import { describe, expect, it } from 'vitest';
import { unfinishedFeatureClaims, unfinishedFeaturePhrases } from './unfinished-feature-claims';

describe('unfinishedFeatureClaims', () => {
  it('finds every listed phrase, in any case, with its line', () => {
    for (const phrase of unfinishedFeaturePhrases) {
      const text = `# Title\n\nThe feature is ${phrase.toUpperCase()}.`;
      expect(unfinishedFeatureClaims(text)).toEqual([{ line: 3, phrase }]);
    }
  });

  it('passes a page that says what ships today', () => {
    expect(
      unfinishedFeatureClaims('Conditionals compile to each platform’s syntax.\nBuilt in 2026.'),
    ).toEqual([]);
  });
});
