import { describe, expect, it } from 'vitest';
import {
  applyBrandProfile,
  type ComponentDefinition,
  mergeCustomStyles,
  mergeDesignTokens,
} from './design-system.ts';

describe('mergeDesignTokens', () => {
  it('merges objects at every depth and replaces everything else', () => {
    const base = {
      colors: { primary: '#111', text: { body: '#222', muted: '#333' } },
      fonts: ['A', 'B'],
      radius: 4,
    };
    const override = { colors: { text: { muted: '#999' }, accent: '#f0f' }, fonts: ['C'], radius: null };
    expect(mergeDesignTokens(base, override)).toEqual({
      colors: { primary: '#111', text: { body: '#222', muted: '#999' }, accent: '#f0f' },
      fonts: ['C'],
      radius: null,
    });
    expect(base.colors.text.muted).toBe('#333');
  });

  it('lets a scalar replace an object and an object replace a scalar', () => {
    expect(mergeDesignTokens({ a: { b: 1 }, c: 1 }, { a: 'flat', c: { d: 2 } })).toEqual({
      a: 'flat',
      c: { d: 2 },
    });
  });
});

describe('mergeCustomStyles', () => {
  it('adds the brand’s styles and replaces same-named ones', () => {
    expect(
      mergeCustomStyles(
        [
          { name: 'a', label: 'A', style: 'color: red;' },
          { name: 'b', label: 'B', style: 'color: blue;' },
        ],
        [
          { name: 'b', label: 'B', style: 'color: green;' },
          { name: 'c', label: 'C', style: 'color: black;' },
        ],
      ),
    ).toEqual([
      { name: 'a', label: 'A', style: 'color: red;' },
      { name: 'b', label: 'B', style: 'color: green;' },
      { name: 'c', label: 'C', style: 'color: black;' },
    ]);
  });
});

describe('applyBrandProfile', () => {
  const components: ComponentDefinition[] = [
    {
      id: 1,
      name: 'hero',
      label: 'Hero',
      container: false,
      template: '',
      field_definitions: [
        { type: 'text', label: 'Headline', liquid_variable: 'headline', default_value: 'Hello' },
        { type: 'color', label: 'Background', liquid_variable: 'background', default_value: '#ffffff' },
      ],
    },
    { id: 2, name: 'footer', label: 'Footer', container: false, template: '', field_definitions: [] },
  ];

  it('flags nothing without a brand profile', () => {
    expect(applyBrandProfile(components, null).map((component) => component.hidden)).toEqual([false, false]);
  });

  it('hides components and overrides field defaults, labels and visibility', () => {
    const branded = applyBrandProfile(components, {
      id: 9,
      name: 'Acme',
      design_tokens: {},
      component_overrides: [
        {
          component_id: 1,
          hidden: false,
          field_overrides: [
            {
              liquid_variable: 'headline',
              default_value: 'Hi from Acme',
              label: 'Title',
              hidden_from_ai: true,
            },
            { liquid_variable: 'background', hidden_in_editor: true },
            { liquid_variable: 'missing', label: 'Ignored' },
          ],
        },
        { component_id: 2, hidden: true, field_overrides: [] },
      ],
    });
    expect(branded[0]).toMatchObject({ id: 1, hidden: false });
    expect(branded[0]?.field_definitions).toEqual([
      {
        type: 'text',
        label: 'Title',
        liquid_variable: 'headline',
        default_value: 'Hi from Acme',
        hidden_from_ai: true,
      },
      {
        type: 'color',
        label: 'Background',
        liquid_variable: 'background',
        default_value: '#ffffff',
        hidden_in_editor: true,
      },
    ]);
    expect(branded[1]).toMatchObject({ id: 2, hidden: true });
    expect(components[0]?.field_definitions[0]?.default_value).toBe('Hello');
  });
});
