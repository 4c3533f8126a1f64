import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeProtectedPieces, maskProtectedMarkup, unmaskProtectedMarkup } from './protected-markup.ts';

describe('protected markup', () => {
  it('masks Liquid, platform syntax and links in text, and restores them', () => {
    const source =
      'Hi {{ first_name }}, %%FirstName%% *|FNAME|* see https://a.example/x?y=1 {% if vip %}VIP{% endif %}';
    const masked = maskProtectedMarkup(source, 'text');
    expect(masked.masked).toBe('Hi ⟦1⟧, ⟦2⟧ ⟦3⟧ see ⟦4⟧ ⟦5⟧VIP⟦6⟧');
    const translated = 'Bonjour ⟦1⟧, ⟦2⟧ ⟦3⟧ voir ⟦4⟧ ⟦5⟧VIP⟦6⟧';
    expect(unmaskProtectedMarkup(translated, masked)).toEqual({
      ok: true,
      text: 'Bonjour {{ first_name }}, %%FirstName%% *|FNAME|* voir https://a.example/x?y=1 {% if vip %}VIP{% endif %}',
    });
  });

  it('masks every tag with its attributes and every entity in rich text', () => {
    const masked = maskProtectedMarkup(
      '<p>Save <a href="https://a.example" class="es-link">now</a>&nbsp;!</p>',
      'rich_text',
    );
    expect(masked.masked).toBe('⟦1⟧Save ⟦2⟧now⟦3⟧⟦4⟧!⟦5⟧');
    expect(masked.pieces).toEqual([
      '<p>',
      '<a href="https://a.example" class="es-link">',
      '</a>',
      '&nbsp;',
      '</p>',
    ]);
  });

  it('refuses a translation that loses, repeats or invents a placeholder, or adds syntax', () => {
    const masked = maskProtectedMarkup('Hi {{ name }}, <b>go</b>', 'rich_text');
    expect(unmaskProtectedMarkup('Salut, ⟦2⟧va⟦3⟧', masked)).toEqual({
      ok: false,
      problem: 'lost ⟦1⟧, which must stay exactly as given',
      description: 'lost the Liquid value {{ name }}',
    });
    expect(unmaskProtectedMarkup('Salut ⟦1⟧ ⟦1⟧, ⟦2⟧va⟦3⟧', masked).ok).toBe(false);
    expect(unmaskProtectedMarkup('Salut ⟦1⟧, ⟦2⟧va⟦3⟧⟦4⟧', masked)).toEqual({
      ok: false,
      problem: 'has ⟦4⟧, which the source does not',
      description: 'adds markup, links or personalization the source does not have',
    });
    expect(unmaskProtectedMarkup('Salut ⟦1⟧ {{ x }}, ⟦2⟧va⟦3⟧', masked)).toMatchObject({ ok: false });
    expect(unmaskProtectedMarkup('Salut ⟦1⟧, <i>⟦2⟧va⟦3⟧</i>', masked)).toMatchObject({ ok: false });
  });

  it('names what a refused translation lost in words, never placeholders', () => {
    const masked = maskProtectedMarkup(
      '<p>Hi {tag:7}, <strong>save</strong> with <a href="https://shop.example/spring" class="es-link">Shop now</a></p>',
      'rich_text',
    );
    const tagLabel = (id: number) => (id === 7 ? 'First name' : undefined);
    // ⟦2⟧ is the tag; ⟦5⟧ and ⟦6⟧ open and close the link.
    const lostLinkAndTag = masked.masked.replace('⟦2⟧', 'friend').replace('⟦5⟧', '').replace('⟦6⟧', '');
    const refused = unmaskProtectedMarkup(lostLinkAndTag, masked, { tagLabel });
    expect(refused).toMatchObject({
      ok: false,
      description:
        'lost the personalization tag {First name} and the link "Shop now" (to https://shop.example/spring)',
    });
    if (!refused.ok) expect(refused.description).not.toMatch(/⟦/);
    expect(describeProtectedPieces(masked, [3, 5])).toBe(
      '2 pieces of markup: <strong> and the link "Shop now" (to https://shop.example/spring)',
    );
    expect(describeProtectedPieces(masked, [2])).toBe('the personalization tag {tag:7}');
    expect(describeProtectedPieces(masked, [4, 7])).toBe(
      '2 pieces of markup: the end of <strong> and the end of <p>',
    );
    const withoutWords = maskProtectedMarkup(
      '<a href="https://x.example/a"></a> and https://y.example',
      'rich_text',
    );
    expect(describeProtectedPieces(withoutWords, [1, 3])).toBe(
      'a link to https://x.example/a and the web address https://y.example',
    );
    const repeated = unmaskProtectedMarkup('Salut ⟦1⟧ ⟦1⟧', maskProtectedMarkup('Hi {% if vip %}', 'text'));
    expect(repeated).toMatchObject({ ok: false, description: 'repeats the Liquid tag {% if vip %}' });
  });

  it('accepts characters the source itself has, such as > in plain text', () => {
    const masked = maskProtectedMarkup('Save >50% today', 'text');
    expect(unmaskProtectedMarkup('Économisez >50 % aujourd’hui', masked)).toEqual({
      ok: true,
      text: 'Économisez >50 % aujourd’hui',
    });
  });

  it('round-trips any text whose words change but whose placeholders stay', () => {
    const word = fc.stringMatching(/^[a-zé ]{0,8}$/);
    const piece = fc.constantFrom(
      '{{ a }}',
      '{% if b %}',
      '%%Name%%',
      '<strong class="x">',
      '</p>',
      '&amp;',
      'https://x.example/y',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(word, piece)), word, (parts, tail) => {
        const source = parts.map(([text, markup]) => text + markup).join('') + tail;
        const masked = maskProtectedMarkup(source, 'rich_text');
        const translated = masked.masked.replace(/[a-zé]/g, (letter) => letter.toUpperCase());
        const restored = unmaskProtectedMarkup(translated, masked);
        expect(restored.ok).toBe(true);
        if (restored.ok)
          expect(maskProtectedMarkup(restored.text, 'rich_text').pieces).toEqual(masked.pieces);
      }),
      { numRuns: 300 },
    );
  });
});
