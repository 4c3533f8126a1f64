import { describe, expect, it } from 'vitest';
import { overrideProblems, overridesBody, overridesDraft, refusedSaveProblems } from './brand-overrides.ts';

describe('brand profile overrides', () => {
  it('sends only the components and fields the brand changes', () => {
    const { overrides } = overridesBody({
      3: {
        hidden: false,
        fields: { headline: { label: '' }, cta: { default_value: 'Shop now', hidden_from_ai: true } },
      },
      4: { hidden: true, fields: {} },
      5: { hidden: false, fields: { title: {} } },
    });
    expect(overrides).toEqual([
      {
        component_id: 3,
        hidden: false,
        field_overrides: [{ liquid_variable: 'cta', default_value: 'Shop now', hidden_from_ai: true }],
      },
      { component_id: 4, hidden: true, field_overrides: [] },
    ]);
  });

  it('round-trips stored overrides into the draft', () => {
    const stored = [
      { component_id: 7, hidden: true, field_overrides: [{ liquid_variable: 'title', label: 'Heading' }] },
    ];
    expect(overridesBody(overridesDraft(stored)).overrides).toEqual(stored);
  });

  it('puts a 422 message on the field override it was about, by the sent position', () => {
    const { positions } = overridesBody({
      3: { hidden: false, fields: { count: { default_value: 'many' } } },
      9: { hidden: false, fields: { title: { label: 'Heading' }, size: { default_value: 'huge' } } },
    });
    const { byTarget, rest } = overrideProblems(
      {
        'component_overrides.1.field_overrides.1.default_value': ['must be one of: small, large'],
        'component_overrides.0.component_id': ['is not a component of this design system'],
        other: ['is odd'],
      },
      positions,
    );
    expect(byTarget).toEqual({
      '9:size': ['default_value must be one of: small, large'],
      '3': ['component_id is not a component of this design system'],
    });
    expect(rest).toEqual(['other is odd']);
  });

  it('lists a refused save’s messages that no input shows, leaving the name’s and tokens’ to their inputs', () => {
    const { positions } = overridesBody({ 3: { hidden: true, fields: {} } });
    expect(
      refusedSaveProblems(
        {
          name: ['is taken'],
          'design_tokens.colors': ['must be an object'],
          'component_overrides.0.hidden': ['cannot hide a container'],
          'component_overrides.4': ['is unknown'],
          locales: ['are odd'],
        },
        'Failed to save',
        positions,
      ),
    ).toEqual({
      byTarget: { '3': ['hidden cannot hide a container'] },
      rest: ['component_overrides.4 is unknown', 'locales are odd'],
    });
  });

  it('shows a refused save’s own message when it names no field', () => {
    expect(refusedSaveProblems({}, 'Brand profile limit reached', {})).toEqual({
      byTarget: {},
      rest: ['Brand profile limit reached'],
    });
  });
});
