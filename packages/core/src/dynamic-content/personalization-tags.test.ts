import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../render/html-escape.ts';
import {
  type PersonalizationTagDefinition,
  personalizationTagIdsIn,
  personalizationTagToken,
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
