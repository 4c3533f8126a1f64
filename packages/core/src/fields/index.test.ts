import { describe, expect, it } from 'vitest';
import {
  type FieldDefinition,
  fieldTypeSpecs,
  fieldTypes,
  isFieldVisible,
  validateFieldDefinitions,
  validateFieldValue,
} from './index.ts';

const context = { customStyleNames: ['highlight', 'small_print'] };

function field(overrides: Partial<FieldDefinition> & Pick<FieldDefinition, 'type'>): FieldDefinition {
  return { label: 'Field', liquid_variable: 'value', default_value: '', ...overrides } as FieldDefinition;
}

function errorsOf(definition: Record<string, unknown>, others: Record<string, unknown>[] = []) {
  return validateFieldDefinitions([definition, ...others], context);
}

describe('fieldTypes', () => {
  it('lists every type once, each with a spec', () => {
    expect(fieldTypes).toEqual([
      'text',
      'number',
      'enum',
      'boolean',
      'url',
      'image',
      'color',
      'rich_text',
      'code',
      'horizontal_align',
      'vertical_align',
    ]);
    for (const type of fieldTypes) expect(fieldTypeSpecs[type].type).toBe(type);
  });

  it('accepts each type with its initial default value', () => {
    for (const type of fieldTypes) {
      const definition: Record<string, unknown> = {
        type,
        label: 'Field',
        liquid_variable: 'value',
        default_value: fieldTypeSpecs[type].initialDefaultValue,
      };
      if (type === 'enum') {
        definition.options = [{ label: 'One', value: '' }];
      }
      expect(errorsOf(definition), type).toEqual({});
    }
  });

  it('says which types insert HTML', () => {
    expect(fieldTypes.filter((type) => fieldTypeSpecs[type].editor.insertsHtml)).toEqual([
      'rich_text',
      'code',
    ]);
  });
});

describe('validateFieldDefinitions: common keys', () => {
  it('reports a list that is not a list under base', () => {
    expect(validateFieldDefinitions({}, context)).toEqual({ base: ['must be an array'] });
  });

  it('reports an item that is not an object', () => {
    expect(validateFieldDefinitions(['text'], context)).toEqual({ '0': ['must be an object'] });
  });

  it('requires type, label, liquid_variable and default_value', () => {
    expect(validateFieldDefinitions([{}], context)).toEqual({
      '0.type': ['is required'],
      '0.label': ['is required'],
      '0.liquid_variable': ['is required'],
      '0.default_value': ['is required'],
    });
  });

  it('rejects an unknown type', () => {
    expect(errorsOf({ type: 'slider', label: 'A', liquid_variable: 'a', default_value: 1 })).toEqual({
      '0.type': [
        'must be one of: text, number, enum, boolean, url, image, color, rich_text, code, horizontal_align, vertical_align',
      ],
    });
  });

  it('rejects a blank or non-string label', () => {
    expect(errorsOf({ type: 'text', label: ' ', liquid_variable: 'a', default_value: '' })).toEqual({
      '0.label': ["can't be blank"],
    });
    expect(errorsOf({ type: 'text', label: 3, liquid_variable: 'a', default_value: '' })).toEqual({
      '0.label': ['must be a string'],
    });
  });

  it('requires liquid_variable to be an identifier, not reserved, and unique', () => {
    const base = { type: 'text', label: 'A', default_value: '' };
    expect(errorsOf({ ...base, liquid_variable: '2fast' })).toEqual({
      '0.liquid_variable': [
        'must start with a letter or underscore and contain only letters, digits and underscores',
      ],
    });
    expect(errorsOf({ ...base, liquid_variable: 'head-line' })['0.liquid_variable']).toHaveLength(1);
    expect(errorsOf({ ...base, liquid_variable: 'children' })).toEqual({
      '0.liquid_variable': ['is reserved'],
    });
    expect(errorsOf({ ...base, liquid_variable: 'render_context' })).toEqual({
      '0.liquid_variable': ['is reserved'],
    });
    expect(errorsOf({ ...base, liquid_variable: 'title' }, [{ ...base, liquid_variable: 'title' }])).toEqual({
      '1.liquid_variable': ['has already been taken'],
    });
    expect(errorsOf({ ...base, liquid_variable: 7 })).toEqual({ '0.liquid_variable': ['must be a string'] });
  });

  it('checks the optional keys’ types and rejects unknown keys', () => {
    expect(
      errorsOf({
        type: 'text',
        label: 'A',
        liquid_variable: 'a',
        default_value: '',
        group: 1,
        hint: false,
        feed_field_name: [],
        hidden_in_editor: 'yes',
        hidden_from_ai: 0,
        colour: 'red',
        options: [],
      }),
    ).toEqual({
      '0.group': ['must be a string'],
      '0.hint': ['must be a string'],
      '0.feed_field_name': ['must be a string'],
      '0.hidden_in_editor': ['must be a boolean'],
      '0.hidden_from_ai': ['must be a boolean'],
      '0.colour': ['is not a known field'],
      '0.options': ['is not a known field'],
    });
  });

  it('accepts nulls for the nullable keys', () => {
    expect(
      errorsOf({
        type: 'text',
        label: 'A',
        liquid_variable: 'a',
        default_value: '',
        group: null,
        hint: null,
        visible_if: null,
        validations: null,
        feed_field_name: null,
      }),
    ).toEqual({});
  });
});

describe('validateFieldDefinitions: visible_if', () => {
  const toggle = { type: 'boolean', label: 'Show', liquid_variable: 'show_cta', default_value: true };
  const text = (visibleIf: unknown) => ({
    type: 'text',
    label: 'CTA',
    liquid_variable: 'cta',
    default_value: '',
    visible_if: visibleIf,
  });

  it('accepts an expression over sibling fields', () => {
    expect(validateFieldDefinitions([toggle, text('show_cta == true')], context)).toEqual({});
    const headline = { type: 'text', label: 'Headline', liquid_variable: 'headline', default_value: '' };
    expect(
      validateFieldDefinitions([toggle, headline, text('show_cta and headline != blank')], context),
    ).toEqual({});
  });

  it('rejects names that are not sibling fields, including the field itself', () => {
    expect(validateFieldDefinitions([toggle, text('show_button == true')], context)).toEqual({
      '1.visible_if': ['refers to show_button, which is not a field of this component'],
    });
    expect(validateFieldDefinitions([toggle, text("cta != ''")], context)).toEqual({
      '1.visible_if': ['refers to cta, which is not a field of this component'],
    });
    expect(validateFieldDefinitions([toggle, text('global_fields.theme == "dark"')], context)).toEqual({
      '1.visible_if': ['refers to global_fields, which is not a field of this component'],
    });
  });

  it('rejects tags and expressions that do not parse', () => {
    expect(validateFieldDefinitions([toggle, text('{{ show_cta }}')], context)).toEqual({
      '1.visible_if': ['must be a Liquid expression without {{ }} or {% %}'],
    });
    const [message] =
      validateFieldDefinitions([toggle, text('show_cta == (')], context)['1.visible_if'] ?? [];
    expect(message).toMatch(/^is not a valid Liquid expression/);
  });

  it('requires a string', () => {
    expect(validateFieldDefinitions([toggle, text(true)], context)).toEqual({
      '1.visible_if': ['must be a string'],
    });
  });
});

describe('validateFieldDefinitions: validations', () => {
  const text = (validations: unknown) => ({
    type: 'text',
    label: 'A',
    liquid_variable: 'a',
    default_value: '',
    validations,
  });

  it('accepts the validations of each type', () => {
    expect(
      errorsOf(text({ min_length: 1, max_length: 10, must_not_be_blank: true, must_not_be_default: false })),
    ).toEqual({});
    expect(
      errorsOf({
        type: 'number',
        label: 'N',
        liquid_variable: 'n',
        default_value: 0,
        validations: { min: -5, max: 5 },
      }),
    ).toEqual({});
    for (const type of ['url', 'image', 'code']) {
      expect(
        errorsOf({
          type,
          label: 'U',
          liquid_variable: 'u',
          default_value: '',
          validations: { must_not_be_blank: true, must_not_be_default: true },
        }),
      ).toEqual({});
    }
    expect(
      errorsOf({
        type: 'rich_text',
        label: 'R',
        liquid_variable: 'r',
        default_value: '',
        validations: {
          min_content_length: 1,
          max_content_length: 5,
          must_not_be_blank: true,
          must_not_be_default: true,
        },
      }),
    ).toEqual({});
  });

  it('rejects validations another type owns', () => {
    expect(errorsOf(text({ min: 1 }))).toEqual({
      '0.validations.min': ['is not a validation for text fields'],
    });
    expect(
      errorsOf({
        type: 'boolean',
        label: 'B',
        liquid_variable: 'b',
        default_value: true,
        validations: { must_not_be_blank: true },
      }),
    ).toEqual({ '0.validations.must_not_be_blank': ['is not a validation for boolean fields'] });
    expect(
      errorsOf({
        type: 'url',
        label: 'U',
        liquid_variable: 'u',
        default_value: '',
        validations: { max_length: 3 },
      }),
    ).toEqual({ '0.validations.max_length': ['is not a validation for url fields'] });
    expect(
      errorsOf({
        type: 'rich_text',
        label: 'R',
        liquid_variable: 'r',
        default_value: '',
        validations: { max_length: 3 },
      }),
    ).toEqual({ '0.validations.max_length': ['is not a validation for rich text fields'] });
  });

  it('checks the numbers and flags', () => {
    expect(errorsOf(text({ min_length: -1, max_length: 2.5, must_not_be_blank: 'yes' }))).toEqual({
      '0.validations.min_length': ['must be a whole number of at least 0'],
      '0.validations.max_length': ['must be a whole number of at least 0'],
      '0.validations.must_not_be_blank': ['must be a boolean'],
    });
    expect(
      errorsOf({
        type: 'number',
        label: 'N',
        liquid_variable: 'n',
        default_value: 0,
        validations: { min: '1' },
      }),
    ).toEqual({ '0.validations.min': ['must be a number'] });
  });

  it('requires min not above max', () => {
    expect(errorsOf(text({ min_length: 5, max_length: 2 }))).toEqual({
      '0.validations.min_length': ['must be less than or equal to 2'],
    });
    expect(
      errorsOf({
        type: 'number',
        label: 'N',
        liquid_variable: 'n',
        default_value: 0,
        validations: { min: 3, max: 1 },
      }),
    ).toEqual({
      '0.validations.min': ['must be less than or equal to 1'],
      '0.default_value': ['must be greater than or equal to 3'],
    });
  });

  it('requires an object', () => {
    expect(errorsOf(text([]))).toEqual({ '0.validations': ['must be an object'] });
  });
});

describe('validateFieldDefinitions: default values by type', () => {
  const definition = (type: string, default_value: unknown, extra: Record<string, unknown> = {}) => ({
    type,
    label: 'F',
    liquid_variable: 'f',
    default_value,
    ...extra,
  });

  it('text, url, image, code and rich_text need a string', () => {
    for (const type of ['text', 'url', 'image', 'code', 'rich_text']) {
      expect(errorsOf(definition(type, 5)), type).toEqual({ '0.default_value': ['must be a string'] });
    }
  });

  it('number needs a finite number within min and max', () => {
    expect(errorsOf(definition('number', '5'))).toEqual({ '0.default_value': ['must be a number'] });
    expect(errorsOf(definition('number', Number.NaN))).toEqual({ '0.default_value': ['must be a number'] });
    expect(errorsOf(definition('number', 50, { validations: { max: 10 } }))).toEqual({
      '0.default_value': ['must be less than or equal to 10'],
    });
  });

  it('boolean needs true or false', () => {
    expect(errorsOf(definition('boolean', 'true'))).toEqual({ '0.default_value': ['must be a boolean'] });
  });

  it('color needs a hex color', () => {
    expect(errorsOf(definition('color', '#1a2b3c'))).toEqual({});
    expect(errorsOf(definition('color', '#FFF'))).toEqual({});
    expect(errorsOf(definition('color', 'red'))).toEqual({
      '0.default_value': ['must be a hex color such as #1A2B3C'],
    });
    expect(errorsOf(definition('color', 1))).toEqual({ '0.default_value': ['must be a string'] });
  });

  it('enum needs options with unique values and a default among them', () => {
    const options = [
      { label: 'Primary', value: 'primary' },
      { label: 'Secondary', value: 'secondary', icon_url: 'https://example.com/s.png' },
    ];
    expect(errorsOf(definition('enum', 'primary', { options }))).toEqual({});
    expect(errorsOf(definition('enum', 'tertiary', { options }))).toEqual({
      '0.default_value': ['must be one of: primary, secondary'],
    });
    expect(errorsOf(definition('enum', 'a'))).toEqual({ '0.options': ['is required'] });
    expect(errorsOf(definition('enum', 'a', { options: {} }))).toEqual({ '0.options': ['must be an array'] });
    expect(errorsOf(definition('enum', 'a', { options: [] }))).toEqual({
      '0.options': ['must have at least 1 option'],
      '0.default_value': ['must be one of: '],
    });
    expect(
      errorsOf(
        definition('enum', 'a', {
          options: [
            { label: 'A', value: 'a' },
            { label: '', value: 'a' },
            'b',
            { value: 1, colour: 'x', icon_url: 3 },
          ],
        }),
      ),
    ).toEqual({
      '0.options.1.label': ["can't be blank"],
      '0.options.1.value': ['has already been taken'],
      '0.options.2': ['must be an object'],
      '0.options.3.colour': ['is not a known field'],
      '0.options.3.label': ['is required'],
      '0.options.3.value': ['must be a string'],
      '0.options.3.icon_url': ['must be a string'],
    });
  });

  it('alignments take their choices from options (or alignments) and need a default among them', () => {
    expect(errorsOf(definition('horizontal_align', 'center'))).toEqual({});
    expect(errorsOf(definition('horizontal_align', 'left', { options: ['left', 'center'] }))).toEqual({});
    expect(errorsOf(definition('horizontal_align', 'left', { alignments: ['left', 'right'] }))).toEqual({});
    expect(errorsOf(definition('horizontal_align', 'right', { options: ['left', 'center'] }))).toEqual({
      '0.default_value': ['must be one of: left, center'],
    });
    expect(errorsOf(definition('horizontal_align', 'top'))).toEqual({
      '0.default_value': ['must be one of: left, center, right'],
    });
    expect(errorsOf(definition('vertical_align', 'middle', { options: ['top', 'middle'] }))).toEqual({});
    expect(errorsOf(definition('vertical_align', 'top', { options: ['top', 'left', 'top'] }))).toEqual({
      '0.options.1': ['must be one of: top, middle, bottom'],
      '0.options.2': ['has already been taken'],
    });
    expect(errorsOf(definition('vertical_align', 'left', { alignments: 'top' }))).toEqual({
      '0.alignments': ['must be an array'],
      '0.default_value': ['must be one of: top, middle, bottom'],
    });
    expect(errorsOf(definition('vertical_align', 'top', { options: [] }))).toEqual({
      '0.options': ['must have at least 1 option'],
      '0.default_value': ['must be one of: '],
    });
  });

  it('url takes skip_link_tracking as a boolean', () => {
    expect(errorsOf(definition('url', '', { skip_link_tracking: true }))).toEqual({});
    expect(errorsOf(definition('url', '', { skip_link_tracking: 'no' }))).toEqual({
      '0.skip_link_tracking': ['must be a boolean'],
    });
  });

  it('rich_text checks marks and custom styles against the design system', () => {
    expect(
      errorsOf(
        definition('rich_text', '<p></p>', {
          marks: { bold: { enabled: true, custom_style_name: 'highlight' }, italic: { enabled: false } },
          custom_styles_names: ['highlight', 'small_print'],
        }),
      ),
    ).toEqual({});
    expect(errorsOf(definition('rich_text', '', { marks: null }))).toEqual({});
    expect(
      errorsOf(
        definition('rich_text', '', {
          marks: {
            bold: { enabled: 'yes', custom_style_name: 'neon' },
            underline: { enabled: true },
            italic: true,
          },
          custom_styles_names: ['highlight', 'neon', 3],
        }),
      ),
    ).toEqual({
      '0.marks.bold.enabled': ['must be a boolean'],
      '0.marks.bold.custom_style_name': ['is not a custom style of this design system'],
      '0.marks.underline': ['is not a known field'],
      '0.marks.italic': ['must be an object'],
      '0.custom_styles_names.1': ['is not a custom style of this design system'],
      '0.custom_styles_names.2': ['must be a string'],
    });
    expect(errorsOf(definition('rich_text', '', { marks: [], custom_styles_names: 'highlight' }))).toEqual({
      '0.marks': ['must be an object'],
      '0.custom_styles_names': ['must be an array'],
    });
  });
});

describe('validateFieldValue', () => {
  it('text: type, blank, default, lengths counted in characters', () => {
    const headline = field({
      type: 'text',
      default_value: 'Headline',
      validations: { min_length: 3, max_length: 5, must_not_be_blank: true, must_not_be_default: true },
    });
    expect(validateFieldValue(headline, 'Hello')).toEqual([]);
    expect(validateFieldValue(headline, '🙂🙂🙂')).toEqual([]);
    // A personalization tag is one character, as its chip is, not its eight-character token.
    expect(validateFieldValue(headline, 'Hi {tag:12}')).toEqual([]);
    expect(validateFieldValue(headline, 'Hey, {tag:12}')).toEqual(['must be at most 5 characters']);
    expect(validateFieldValue(headline, 'Hi')).toEqual(['must be at least 3 characters']);
    expect(validateFieldValue(headline, 'Hello!')).toEqual(['must be at most 5 characters']);
    expect(validateFieldValue(headline, '  ')).toEqual(["can't be blank", 'must be at least 3 characters']);
    expect(validateFieldValue(headline, null)).toEqual(["can't be blank", 'must be at least 3 characters']);
    expect(validateFieldValue(headline, 'Headline')).toEqual([
      'must be changed from the default',
      'must be at most 5 characters',
    ]);
    expect(validateFieldValue(headline, 12)).toEqual(['must be a string']);
    expect(validateFieldValue(field({ type: 'text', validations: { max_length: 1 } }), 'ab')).toEqual([
      'must be at most 1 character',
    ]);
    expect(validateFieldValue(field({ type: 'text' }), '')).toEqual([]);
  });

  it('number: type and bounds', () => {
    const count = field({ type: 'number', default_value: 1, validations: { min: 1, max: 10 } });
    expect(validateFieldValue(count, 1)).toEqual([]);
    expect(validateFieldValue(count, 10)).toEqual([]);
    expect(validateFieldValue(count, 0)).toEqual(['must be greater than or equal to 1']);
    expect(validateFieldValue(count, 11)).toEqual(['must be less than or equal to 10']);
    expect(validateFieldValue(count, '5')).toEqual(['must be a number']);
    expect(validateFieldValue(count, Number.POSITIVE_INFINITY)).toEqual(['must be a number']);
    expect(validateFieldValue(count, null)).toEqual([]);
  });

  it('boolean: type', () => {
    const flag = field({ type: 'boolean', default_value: false });
    expect(validateFieldValue(flag, true)).toEqual([]);
    expect(validateFieldValue(flag, null)).toEqual([]);
    expect(validateFieldValue(flag, 'true')).toEqual(['must be a boolean']);
  });

  it('enum: one of the options', () => {
    const style = field({
      type: 'enum',
      default_value: 'a',
      options: [
        { label: 'A', value: 'a' },
        { label: 'B', value: 'b' },
      ],
    });
    expect(validateFieldValue(style, 'b')).toEqual([]);
    expect(validateFieldValue(style, 'c')).toEqual(['must be one of: a, b']);
    expect(validateFieldValue(style, null)).toEqual([]);
  });

  it('url, image and code: blank and default', () => {
    for (const type of ['url', 'image', 'code'] as const) {
      const definition = field({
        type,
        default_value: 'https://example.com',
        validations: { must_not_be_blank: true, must_not_be_default: true },
      });
      expect(validateFieldValue(definition, 'https://letterset.dev'), type).toEqual([]);
      expect(validateFieldValue(definition, ''), type).toEqual(["can't be blank"]);
      expect(validateFieldValue(definition, 'https://example.com'), type).toEqual([
        'must be changed from the default',
      ]);
      expect(validateFieldValue(definition, 1), type).toEqual(['must be a string']);
    }
    expect(validateFieldValue(field({ type: 'url' }), '{{ unsubscribe_url }}')).toEqual([]);
  });

  it('color: a hex color', () => {
    const color = field({ type: 'color', default_value: '#000000' });
    expect(validateFieldValue(color, '#abcdef')).toEqual([]);
    expect(validateFieldValue(color, '#abcdef80')).toEqual([]);
    expect(validateFieldValue(color, 'blue')).toEqual(['must be a hex color such as #1A2B3C']);
    expect(validateFieldValue(color, 3)).toEqual(['must be a string']);
    expect(validateFieldValue(color, null)).toEqual([]);
  });

  it('alignments: one of the offered choices', () => {
    const horizontal = field({
      type: 'horizontal_align',
      default_value: 'left',
      options: ['left', 'center'],
    });
    expect(validateFieldValue(horizontal, 'center')).toEqual([]);
    expect(validateFieldValue(horizontal, 'right')).toEqual(['must be one of: left, center']);
    const vertical = field({ type: 'vertical_align', default_value: 'top' });
    expect(validateFieldValue(vertical, 'bottom')).toEqual([]);
    expect(validateFieldValue(vertical, 'left')).toEqual(['must be one of: top, middle, bottom']);
  });

  it('rich_text: counts the text a reader sees', () => {
    const body = field({
      type: 'rich_text',
      default_value: '<p>Write here</p>',
      validations: {
        min_content_length: 3,
        max_content_length: 12,
        must_not_be_blank: true,
        must_not_be_default: true,
      },
    });
    expect(validateFieldValue(body, '<p><strong class="es-bold">Hello</strong> there</p>')).toEqual([]);
    expect(validateFieldValue(body, '<p>Fish &amp; chips</p>')).toEqual([]);
    // A personalization tag is one character here too.
    expect(validateFieldValue(body, '<p>Dear {tag:12}, hi</p>')).toEqual([]);
    expect(validateFieldValue(body, '<p>Hi</p>')).toEqual(['must be at least 3 characters']);
    expect(validateFieldValue(body, '<p>Hello there, world</p>')).toEqual(['must be at most 12 characters']);
    expect(validateFieldValue(body, '<p> </p><p><br></p>')).toEqual([
      "can't be blank",
      'must be at least 3 characters',
    ]);
    expect(validateFieldValue(body, '<p>Write here</p>')).toEqual(['must be changed from the default']);
    expect(validateFieldValue(body, false)).toEqual(['must be a string']);
  });
});

describe('isFieldVisible', () => {
  it('shows fields without a condition', () => {
    expect(isFieldVisible(field({ type: 'text' }), {})).toBe(true);
    expect(isFieldVisible(field({ type: 'text', visible_if: '  ' }), {})).toBe(true);
  });

  it('evaluates the condition with Liquid over the current values', () => {
    const cta = field({ type: 'text', visible_if: 'show_cta == true' });
    expect(isFieldVisible(cta, { show_cta: true })).toBe(true);
    expect(isFieldVisible(cta, { show_cta: false })).toBe(false);
    expect(isFieldVisible(cta, {})).toBe(false);
    const layout = field({ type: 'text', visible_if: "layout == 'split' or count > 2" });
    expect(isFieldVisible(layout, { layout: 'split', count: 0 })).toBe(true);
    expect(isFieldVisible(layout, { layout: 'full', count: 3 })).toBe(true);
    expect(isFieldVisible(layout, { layout: 'full', count: 1 })).toBe(false);
    expect(isFieldVisible(field({ type: 'text', visible_if: 'headline != blank' }), { headline: '' })).toBe(
      false,
    );
  });

  it('shows the field when the condition cannot be evaluated', () => {
    expect(isFieldVisible(field({ type: 'text', visible_if: 'show == (' }), { show: false })).toBe(true);
  });
});
