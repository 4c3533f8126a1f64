import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../render/html-escape.ts';
import {
  joinPersonalizationTagSegments,
  lengthWithTagsAsOne,
  type PersonalizationTagDefinition,
  type PersonalizationTagSegment,
  personalizationTagIdsIn,
  personalizationTagNameClass,
  personalizationTagToken,
  showPersonalizationTagNamesInHtml,
  spacingAroundTag,
  splitPersonalizationTagTokens,
  substitutePersonalizationTags,
} from './personalization-tags.ts';

const firstName: PersonalizationTagDefinition = {
  id: 4,
  default_value: 'there',
  example_value: 'Jane & Co',
  dynamic_content_profile_values: {
    iterable: '{{defaultIfEmpty firstName "there"}}',
    sfmc: '%%=v(@firstName)=%%',
  },
};

describe('personalization tag tokens', () => {
  it('are {tag:<id>}', () => {
    expect(personalizationTagToken(12)).toBe('{tag:12}');
    expect(personalizationTagIdsIn('Hi {tag:4}, {tag:9} and {tag:4} {tag:x}')).toEqual([4, 9]);
  });

  it('survive HTML escaping unchanged', () => {
    expect(escapeHtml('Hi {tag:4}')).toBe('Hi {tag:4}');
  });

  it('show the example value in preview, escaped when asked', () => {
    expect(
      substitutePersonalizationTags('Hi {tag:4}!', [firstName], { kind: 'example' }, { escape: escapeHtml }),
    ).toBe('Hi Jane &amp; Co!');
    expect(substitutePersonalizationTags('Hi {tag:4}!', [firstName], { kind: 'example' })).toBe(
      'Hi Jane & Co!',
    );
  });

  it('export the profile’s value raw, else the default value', () => {
    const exportWith = (profileId: string | null) =>
      substitutePersonalizationTags(
        'Hi {tag:4}!',
        [firstName],
        { kind: 'export', profileId },
        { escape: escapeHtml },
      );
    expect(exportWith('iterable')).toBe('Hi {{defaultIfEmpty firstName "there"}}!');
    expect(exportWith('sfmc')).toBe('Hi %%=v(@firstName)=%%!');
    expect(exportWith('braze')).toBe('Hi there!');
    expect(exportWith(null)).toBe('Hi there!');
  });

  it('leave out tokens of unknown tags and report them', () => {
    const unknown: number[] = [];
    expect(
      substitutePersonalizationTags(
        'A{tag:77}B',
        [firstName],
        { kind: 'example' },
        { onUnknown: (id) => unknown.push(id) },
      ),
    ).toBe('AB');
    expect(unknown).toEqual([77]);
  });
});

describe('splitting a value into text and tags', () => {
  it('finds canonical tokens and keeps everything else as text', () => {
    expect(splitPersonalizationTagTokens('Hi {tag:4}, {tag:9}{tag:4}!')).toEqual([
      { text: 'Hi ' },
      { tagId: 4 },
      { text: ', ' },
      { tagId: 9 },
      { tagId: 4 },
      { text: '!' },
    ]);
    expect(
      splitPersonalizationTagTokens('{tag:007} {tag:} {tag:x} {tag:99999999999999999999} {{tag:1}'),
    ).toEqual([{ text: '{tag:007} {tag:} {tag:x} {tag:99999999999999999999} {' }, { tagId: 1 }]);
    expect(splitPersonalizationTagTokens('')).toEqual([]);
  });

  // Values mix text with tokens, near-tokens and braces: the pieces the grammar is made of.
  const piece = fc.oneof(
    fc.string(),
    fc.nat({ max: 1_000_000 }).map(personalizationTagToken),
    fc.constantFrom('{', '}', '{tag:', '{tag:0}', '{tag:01}', '{tag:-1}', '<p>', '&amp;', '\n', '😀'),
  );
  const value = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

  it('gives back exactly the value it split (any string with tokens survives a round trip)', () => {
    fc.assert(
      fc.property(value, (text) => {
        expect(joinPersonalizationTagSegments(splitPersonalizationTagTokens(text))).toBe(text);
      }),
    );
  });

  it('splits joined segments back into the same segments, adjacent text runs merged', () => {
    // Text without braces cannot forge or break a token, so the split must find exactly these.
    const segment = fc.oneof(
      fc
        .string({ minLength: 1 })
        .filter((text) => !/[{}]/.test(text))
        .map((text) => ({ text })),
      fc.nat({ max: 1_000_000 }).map((tagId) => ({ tagId })),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 10 }), (segments) => {
        const merged: PersonalizationTagSegment[] = [];
        for (const next of segments) {
          const last = merged.at(-1);
          if (last && 'text' in last && 'text' in next)
            merged[merged.length - 1] = { text: last.text + next.text };
          else merged.push(next);
        }
        expect(splitPersonalizationTagTokens(joinPersonalizationTagSegments(segments))).toEqual(merged);
      }),
    );
  });
});

describe('spacing around an inserted tag', () => {
  it('adds a space next to a word, not next to whitespace, the edges or punctuation', () => {
    expect(spacingAroundTag('i', 'a')).toEqual({ before: ' ', after: ' ' });
    expect(spacingAroundTag(' ', ' ')).toEqual({ before: '', after: '' });
    expect(spacingAroundTag(null, null)).toEqual({ before: '', after: '' });
    expect(spacingAroundTag('(', ')')).toEqual({ before: '', after: '' });
    expect(spacingAroundTag('“', '”')).toEqual({ before: '', after: '' });
    expect(spacingAroundTag('i', '!')).toEqual({ before: ' ', after: '' });
    expect(spacingAroundTag('i', ',')).toEqual({ before: ' ', after: '' });
    // After a comma or a full stop the tag starts a new word.
    expect(spacingAroundTag(',', 'a')).toEqual({ before: ' ', after: ' ' });
    expect(spacingAroundTag('\u00a0', '\n')).toEqual({ before: '', after: '' });
  });

  it('treats a neighbouring tag as a word', () => {
    expect(spacingAroundTag({ tag: true }, { tag: true })).toEqual({ before: ' ', after: ' ' });
  });
});

describe('showing tag names', () => {
  const tags = [{ ...firstName, label: 'First name' }];

  it('writes {label} in text and subject lines, {Unknown tag} for a deleted tag', () => {
    const unknown: number[] = [];
    expect(
      substitutePersonalizationTags(
        'Hi {tag:4} {tag:5}',
        tags,
        { kind: 'names' },
        { onUnknown: (id) => unknown.push(id) },
      ),
    ).toBe('Hi {First name} {Unknown tag}');
    expect(unknown).toEqual([5]);
  });

  it('styles names in HTML text and writes plain names in attributes, comments and raw text', () => {
    const unknown: number[] = [];
    const html = showPersonalizationTagNamesInHtml(
      '<title>{tag:4}</title><!-- {tag:4} --><a href="https://x.test/?n={tag:4}" title=\'{tag:4}>\'>Hi {tag:4} &amp; <b>{tag:5}</b></a>',
      tags,
      (id) => unknown.push(id),
    );
    const chip = (style: string, name: string) =>
      `<span class="${personalizationTagNameClass}" style="${style}">${name}</span>`;
    const [, knownStyle] = /style="([^"]*)">\{First/.exec(html) ?? [];
    const [, unknownStyle] = /style="([^"]*)">\{Unknown/.exec(html) ?? [];
    expect(knownStyle).toContain('background:');
    expect(unknownStyle).not.toBe(knownStyle);
    expect(html).toBe(
      '<title>{First name}</title><!-- {First name} --><a href="https://x.test/?n={First name}" title=\'{First name}>\'>' +
        `Hi ${chip(knownStyle ?? '', '{First name}')} &amp; <b>${chip(unknownStyle ?? '', '{Unknown tag}')}</b></a>`,
    );
    expect(unknown).toEqual([5]);
  });

  it('escapes names written into HTML', () => {
    const html = showPersonalizationTagNamesInHtml('<p title="{tag:4}">{tag:4}</p>', [
      { ...firstName, label: 'A "<b>" & co' },
    ]);
    expect(html).toContain('title="{A &quot;&lt;b&gt;&quot; &amp; co}"');
    expect(html).toContain('>{A &quot;&lt;b&gt;&quot; &amp; co}</span>');
  });

  it('leaves HTML without tokens untouched', () => {
    const html = '<p class="a">No tags { here }</p>';
    expect(showPersonalizationTagNamesInHtml(html, tags)).toBe(html);
  });
});

describe('preview example values', () => {
  it('fall back to the default value when a tag has no example value', () => {
    expect(
      substitutePersonalizationTags('Hi {tag:4}', [{ ...firstName, example_value: '' }], { kind: 'example' }),
    ).toBe('Hi there');
  });
});

describe('length with tags as one', () => {
  it('counts each tag as one character and an emoji as one', () => {
    expect(lengthWithTagsAsOne('Hi {tag:12}!')).toBe(5);
    expect(lengthWithTagsAsOne('😀{tag:1}{tag:2}')).toBe(3);
    expect(lengthWithTagsAsOne('{tag:x}')).toBe(7);
  });
});
