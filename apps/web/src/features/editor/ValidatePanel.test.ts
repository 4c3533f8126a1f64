import { describe, expect, it } from 'vitest';
import { contentProblems } from './ValidatePanel.tsx';

describe('contentProblems', () => {
  it('splits the API keys into branch, locale and field', () => {
    expect(
      contentProblems({
        'instance-1': { 'gold.de-DE.headline': ["can't be blank"] },
        subject: { 'null_branch.en-US': ['is blank'] },
      }),
    ).toEqual([
      {
        owner: 'instance-1',
        branch: 'gold',
        locale: 'de-DE',
        variable: 'headline',
        messages: ["can't be blank"],
      },
      { owner: 'subject', branch: 'null_branch', locale: 'en-US', variable: null, messages: ['is blank'] },
    ]);
  });
});
