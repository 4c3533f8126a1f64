import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskProtectedMarkup, unmaskProtectedMarkup } from './protected-markup.ts';

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
    });
    expect(unmaskProtectedMarkup('Salut ⟦1⟧ ⟦1⟧, ⟦2⟧va⟦3⟧', masked).ok).toBe(false);
    expect(unmaskProtectedMarkup('Salut ⟦1⟧, ⟦2⟧va⟦3⟧⟦4⟧', masked)).toEqual({
      ok: false,
      problem: 'has ⟦4⟧, which the source does not',
    });
    expect(unmaskProtectedMarkup('Salut ⟦1⟧ {{ x }}, ⟦2⟧va⟦3⟧', masked)).toMatchObject({ ok: false });
    expect(unmaskProtectedMarkup('Salut ⟦1⟧, <i>⟦2⟧va⟦3⟧</i>', masked)).toMatchObject({ ok: false });
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
