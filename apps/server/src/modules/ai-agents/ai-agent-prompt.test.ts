import { describe, expect, it } from 'vitest';
import { type AiAgentContext, describeAgentForPrompt } from './ai-agent-prompt.ts';

const agent = (fields: Partial<AiAgentContext> = {}): AiAgentContext => ({
  id: 1,
  name: 'Acme voice',
  companyName: null,
  companyOverview: null,
  tone: null,
  guidelines: null,
  brandGuidelinesDocumentName: null,
  brandGuidelinesText: null,
  ...fields,
});

describe('describeAgentForPrompt', () => {
  it('writes every field the agent has, in order, as plain text', () => {
    expect(
      describeAgentForPrompt(
        agent({
          companyName: 'Acme Travel',
          companyOverview: 'City breaks across Europe.',
          tone: 'Professional but friendly',
          guidelines: 'Always include a call-to-action.\nAvoid jargon.',
          brandGuidelinesDocumentName: 'Brand book',
          brandGuidelinesText: 'Our blue is #0055ff.',
        }),
      ),
    ).toBe(
      [
        'Company: Acme Travel',
        '',
        'Company overview:\nCity breaks across Europe.',
        '',
        'Tone of voice: Professional but friendly',
        '',
        'Guidelines to follow:\nAlways include a call-to-action.\nAvoid jargon.',
        '',
        "Brand guidelines (“Brand book”), from the company's document:\n<<<brand guidelines\nOur blue is #0055ff.\nbrand guidelines>>>",
      ].join('\n'),
    );
  });

  it('leaves out empty fields, and gives nothing for an agent with nothing to say', () => {
    expect(describeAgentForPrompt(agent({ tone: 'Warm', guidelines: '   ' }))).toBe('Tone of voice: Warm');
    expect(describeAgentForPrompt(agent())).toBe('');
    expect(describeAgentForPrompt(agent({ brandGuidelinesText: 'Be warm.' }))).toBe(
      "Brand guidelines, from the company's document:\n<<<brand guidelines\nBe warm.\nbrand guidelines>>>",
    );
  });

  it('keeps a document within the budget whole', () => {
    const text = 'x'.repeat(12_000);
    const block = describeAgentForPrompt(agent({ brandGuidelinesText: text }));
    expect(block).toContain(text);
    expect(block).not.toContain('trimmed');
  });

  it('trims a longer document at a paragraph break near the budget, and says so', () => {
    const paragraph = `${'word '.repeat(199)}word`; // 999 characters
    const text = Array.from({ length: 30 }, () => paragraph).join('\n\n'); // 30 × 999 + 29 × 2
    const block = describeAgentForPrompt(agent({ brandGuidelinesText: text }));
    const kept = Array.from({ length: 11 }, () => paragraph).join('\n\n');
    expect(block).toContain(`<<<brand guidelines\n${kept}\nbrand guidelines>>>`);
    expect(block).toContain(
      `(The document was trimmed: these are its first ${kept.length.toLocaleString('en-US')} of 30,028 characters.)`,
    );
  });

  it('cuts at a word when there is no line break near the budget, or at the budget itself', () => {
    const words = describeAgentForPrompt(agent({ brandGuidelinesText: 'abcd '.repeat(100) }), {
      brandGuidelinesBudget: 52,
    });
    expect(words).toContain(`<<<brand guidelines\n${'abcd '.repeat(10).trimEnd()}\nbrand guidelines>>>`);
    const solid = describeAgentForPrompt(agent({ brandGuidelinesText: 'z'.repeat(100) }), {
      brandGuidelinesBudget: 30,
    });
    expect(solid).toContain(`<<<brand guidelines\n${'z'.repeat(30)}\nbrand guidelines>>>`);
    expect(solid).toContain('first 30 of 100 characters');
    // Never half of a character written with two UTF-16 units.
    const emoji = describeAgentForPrompt(agent({ brandGuidelinesText: '😀'.repeat(20) }), {
      brandGuidelinesBudget: 5,
    });
    expect(emoji).toContain(`<<<brand guidelines\n😀😀\nbrand guidelines>>>`);
  });
});
