import { describe, expect, it } from 'vitest';
import {
  compilePickerState,
  type PickerCondition,
  pickerStateProblems,
  type TemplateEnginePreset,
  templateEnginePresetSchema,
} from './presets.ts';

const tiers = ['gold', 'silver', 'other'];
const tierState = {
  include_else_branch: true,
  branches: {
    gold: { conditions: [{ attribute: 'tier', type: 'string' as const, operator: 'equals', value: 'gold' }] },
    silver: {
      conditions: [{ attribute: 'tier', type: 'string' as const, operator: 'equals', value: 'silver' }],
    },
  },
};

/** The opening one condition compiles to, as the first branch. */
function opening(preset: TemplateEnginePreset, condition: PickerCondition): string {
  return (
    compilePickerState(preset, ['only'], {
      include_else_branch: false,
      branches: { only: { conditions: [condition] } },
    }).branch_values.only ?? ''
  );
}

describe('template engine presets', () => {
  it('describe their joiners and operators, with whether each takes a value', () => {
    const schema = templateEnginePresetSchema('handlebars');
    expect(schema?.joiners).toEqual(['and', 'or']);
    expect(schema?.operators_by_type.boolean).toEqual([
      { key: 'is_true', requires_value: false },
      { key: 'is_false', requires_value: false },
    ]);
    expect(schema?.operators_by_type.string).toContainEqual({ key: 'is_empty', requires_value: false });
    expect(schema?.operators_by_type.number).toContainEqual({ key: 'greater_than', requires_value: true });
    expect(templateEnginePresetSchema(null)).toBeNull();
  });

  it.each([
    [
      'liquid',
      { gold: '{% if tier == "gold" %}', silver: '{% elsif tier == "silver" %}', other: '{% else %}' },
      '{% endif %}',
    ],
    [
      'handlebars',
      { gold: '{{#if (eq tier "gold")}}', silver: '{{else if (eq tier "silver")}}', other: '{{else}}' },
      '{{/if}}',
    ],
    [
      'ampscript',
      {
        gold: '%%[ IF @tier == "gold" THEN ]%%',
        silver: '%%[ ELSEIF @tier == "silver" THEN ]%%',
        other: '%%[ ELSE ]%%',
      },
      '%%[ ENDIF ]%%',
    ],
  ] as const)('%s compiles if / else if / else / closing', (preset, branchValues, closing) => {
    expect(compilePickerState(preset, tiers, tierState)).toEqual({ closing, branch_values: branchValues });
  });

  it('without an else branch every branch has a condition', () => {
    expect(
      compilePickerState('liquid', ['gold', 'silver'], { ...tierState, include_else_branch: false })
        .branch_values,
    ).toEqual({ gold: '{% if tier == "gold" %}', silver: '{% elsif tier == "silver" %}' });
  });

  const string = (operator: string, value?: string): PickerCondition => ({
    attribute: 'city',
    type: 'string',
    operator,
    ...(value === undefined ? {} : { value }),
  });
  const number = (operator: string): PickerCondition => ({
    attribute: 'age',
    type: 'number',
    operator,
    value: 30,
  });
  const boolean = (operator: string): PickerCondition => ({ attribute: 'vip', type: 'boolean', operator });

  it.each([
    [
      string('equals', 'Paris'),
      '{% if city == "Paris" %}',
      '{{#if (eq city "Paris")}}',
      '%%[ IF @city == "Paris" THEN ]%%',
    ],
    [
      string('not_equals', 'Paris'),
      '{% if city != "Paris" %}',
      '{{#if (not (eq city "Paris"))}}',
      '%%[ IF @city != "Paris" THEN ]%%',
    ],
    [
      string('contains', 'ar'),
      '{% if city contains "ar" %}',
      '{{#if (contains city "ar")}}',
      '%%[ IF IndexOf(@city, "ar") > 0 THEN ]%%',
    ],
    [
      string('does_not_contain', 'ar'),
      '{% if city contains "ar" == false %}',
      '{{#if (not (contains city "ar"))}}',
      '%%[ IF IndexOf(@city, "ar") == 0 THEN ]%%',
    ],
    [string('is_empty'), '{% if city == blank %}', '{{#if (not city)}}', '%%[ IF EMPTY(@city) THEN ]%%'],
    [string('is_not_empty'), '{% if city != blank %}', '{{#if city}}', '%%[ IF NOT EMPTY(@city) THEN ]%%'],
    [number('equals'), '{% if age == 30 %}', '{{#if (eq age 30)}}', '%%[ IF @age == 30 THEN ]%%'],
    [number('not_equals'), '{% if age != 30 %}', '{{#if (not (eq age 30))}}', '%%[ IF @age != 30 THEN ]%%'],
    [number('greater_than'), '{% if age > 30 %}', '{{#if (gt age 30)}}', '%%[ IF @age > 30 THEN ]%%'],
    [
      number('greater_than_or_equal'),
      '{% if age >= 30 %}',
      '{{#if (gte age 30)}}',
      '%%[ IF @age >= 30 THEN ]%%',
    ],
    [number('less_than'), '{% if age < 30 %}', '{{#if (lt age 30)}}', '%%[ IF @age < 30 THEN ]%%'],
    [
      number('less_than_or_equal'),
      '{% if age <= 30 %}',
      '{{#if (lte age 30)}}',
      '%%[ IF @age <= 30 THEN ]%%',
    ],
    [boolean('is_true'), '{% if vip == true %}', '{{#if (eq vip true)}}', '%%[ IF @vip == "true" THEN ]%%'],
    [
      boolean('is_false'),
      '{% if vip == false %}',
      '{{#if (eq vip false)}}',
      '%%[ IF @vip == "false" THEN ]%%',
    ],
  ])('operator %o', (condition, liquid, handlebars, ampscript) => {
    expect(opening('liquid', condition)).toBe(liquid);
    expect(opening('handlebars', condition)).toBe(handlebars);
    expect(opening('ampscript', condition)).toBe(ampscript);
  });

  it('joins conditions with the branch joiner', () => {
    const state = {
      include_else_branch: false,
      branches: {
        both: {
          joiner: 'or' as const,
          conditions: [string('equals', 'Paris'), number('greater_than')],
        },
      },
    };
    expect(compilePickerState('liquid', ['both'], state).branch_values.both).toBe(
      '{% if city == "Paris" or age > 30 %}',
    );
    expect(compilePickerState('handlebars', ['both'], state).branch_values.both).toBe(
      '{{#if (or (eq city "Paris") (gt age 30))}}',
    );
    expect(compilePickerState('ampscript', ['both'], state).branch_values.both).toBe(
      '%%[ IF @city == "Paris" OR @age > 30 THEN ]%%',
    );
  });

  it('quotes values the way each dialect escapes them, and keeps written AMPscript references', () => {
    const quoted: PickerCondition = {
      attribute: '[First Name]',
      type: 'string',
      operator: 'equals',
      value: 'Say "hi"',
    };
    expect(opening('liquid', quoted)).toBe(`{% if [First Name] == 'Say "hi"' %}`);
    expect(opening('handlebars', quoted)).toBe('{{#if (eq [First Name] "Say \\"hi\\"")}}');
    expect(opening('ampscript', quoted)).toBe('%%[ IF [First Name] == "Say ""hi""" THEN ]%%');
    expect(opening('ampscript', { ...quoted, attribute: '@tier' })).toBe(
      '%%[ IF @tier == "Say ""hi""" THEN ]%%',
    );
  });

  it('reports what does not compile, by path', () => {
    expect(
      pickerStateProblems(['gold', 'silver'], {
        include_else_branch: false,
        branches: {
          gold: {
            conditions: [{ attribute: 'age', type: 'number', operator: 'greater_than', value: 'many' }],
          },
          bronze: { conditions: [] },
          silver: {
            conditions: [{ attribute: 'tier', type: 'string', operator: 'sounds_like', value: 'x' }],
          },
        },
      }),
    ).toEqual({
      'branches.bronze': ['is not a branch key of this conditional'],
      'branches.gold.conditions.0.value': ['must be a number'],
      'branches.silver.conditions.0.operator': [
        'must be one of equals, not_equals, contains, does_not_contain, is_empty, is_not_empty',
      ],
    });
    expect(
      pickerStateProblems(['gold'], {
        include_else_branch: true,
        branches: {},
      }),
    ).toEqual({ include_else_branch: ['needs at least one branch before the else branch'] });
    expect(
      pickerStateProblems(['gold'], {
        include_else_branch: false,
        branches: { gold: { conditions: [string('equals'), { ...string('equals', `a"b'c`) }] } },
      }),
    ).toEqual({
      'branches.gold.conditions.0.value': ['is required for this operator'],
      'branches.gold.conditions.1.value': ['cannot contain both a single and a double quote'],
    });
    expect(() =>
      compilePickerState('liquid', ['gold'], { include_else_branch: false, branches: {} }),
    ).toThrow(/does not compile/);
  });
});
