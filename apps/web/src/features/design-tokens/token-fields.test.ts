import { describe, expect, it } from 'vitest';
import {
  contrastPartnerPath,
  contrastRatio,
  tokenAt,
  tokenContrast,
  tokenFieldGroups,
  tokenFieldKind,
  withTokenOverride,
} from './token-fields.ts';

const tokens = {
  colors: {
    background: '#f3f4f6',
    text: '#1f2933',
    primary: '#2f5bea',
    on_primary: '#ffffff',
    dark: { primary: '#7f9cff' },
  },
  fonts: { body: 'Helvetica, Arial, sans-serif' },
  sizes: { content_width: 600, radius: 6 },
  breakpoints: ['620px'],
  tagline: 'Hello',
};

describe('token fields', () => {
  it('gives each token the field its value calls for', () => {
    expect(tokenFieldKind(['colors', 'primary'], '#2f5bea')).toBe('color');
    expect(tokenFieldKind(['fonts', 'body'], 'Helvetica')).toBe('font');
    expect(tokenFieldKind(['heading_font'], 'Georgia')).toBe('font');
    expect(tokenFieldKind(['sizes', 'radius'], 6)).toBe('size');
    expect(tokenFieldKind(['spacing', 'gutter'], 32)).toBe('size');
    expect(tokenFieldKind(['colors', 'primary'], 'blue')).toBe('text');
  });

  it('groups the tokens by the object holding them, nested objects apart, arrays left to JSON', () => {
    const groups = tokenFieldGroups(tokens);
    expect(groups.map((group) => [group.key, group.label, group.fields.map((field) => field.kind)])).toEqual([
      ['', 'Tokens', ['text']],
      ['colors', 'Colors', ['color', 'color', 'color', 'color']],
      ['colors.dark', 'Colors › Dark', ['color']],
      ['fonts', 'Fonts', ['font']],
      ['sizes', 'Sizes', ['size', 'size']],
    ]);
    expect(groups[1]?.fields[3]).toEqual({
      path: ['colors', 'on_primary'],
      label: 'On primary',
      kind: 'color',
      baseValue: '#ffffff',
    });
    // Labels name the token within its top group, so no two read the same.
    expect(groups[2]?.fields[0]?.label).toBe('Dark primary');
    expect(groups[0]?.fields[0]?.label).toBe('Tagline');
  });

  it('sets and clears one override, dropping objects the clearing empties', () => {
    const set = withTokenOverride({}, ['colors', 'dark', 'primary'], '#d6336c');
    expect(set).toEqual({ colors: { dark: { primary: '#d6336c' } } });
    expect(tokenAt(set, ['colors', 'dark', 'primary'])).toBe('#d6336c');
    expect(tokenAt(set, ['colors', 'primary'])).toBeUndefined();
    const both = withTokenOverride(set, ['sizes', 'radius'], 0);
    expect(both).toEqual({ colors: { dark: { primary: '#d6336c' } }, sizes: { radius: 0 } });
    expect(withTokenOverride(both, ['colors', 'dark', 'primary'], undefined)).toEqual({
      sizes: { radius: 0 },
    });
    expect(set).toEqual({ colors: { dark: { primary: '#d6336c' } } });
  });

  it('measures contrast as WCAG 2.1 does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#ffffff')).toBeCloseTo(1, 5);
    // The dimmed grey the accessibility audit found on white.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    expect(contrastRatio('#ffffff', '#2f5bea')).toBeCloseTo(contrastRatio('#2f5bea', '#ffffff'), 10);
  });

  it('reads text colours against the background and on_ colours against what they sit on', () => {
    expect(contrastPartnerPath(['colors', 'text'])).toEqual(['colors', 'background']);
    expect(contrastPartnerPath(['colors', 'on_primary'])).toEqual(['colors', 'primary']);
    expect(contrastPartnerPath(['colors', 'dark', 'primary'])).toEqual(['colors', 'dark', 'background']);
    expect(contrastPartnerPath(['colors', 'background'])).toBeUndefined();
    expect(tokenContrast(tokens, ['colors', 'on_primary'])).toEqual({
      against: ['colors', 'primary'],
      ratio: contrastRatio('#ffffff', '#2f5bea'),
    });
    expect(tokenContrast(tokens, ['colors', 'dark', 'primary'])).toBeUndefined();
  });
});
