import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '../fields/types.ts';
import type { ComponentDefinition } from '../render/design-system.ts';
import type { EmailContent } from './types.ts';
import { validateEmailContent } from './validate-content.ts';

const headline: FieldDefinition = {
  type: 'text',
  label: 'Headline',
  liquid_variable: 'headline',
  default_value: 'Your headline',
  validations: { must_not_be_blank: true, must_not_be_default: true, max_length: 10 },
};
const showButton: FieldDefinition = {
  type: 'boolean',
  label: 'Show button',
  liquid_variable: 'show_button',
  default_value: false,
};
const buttonLabel: FieldDefinition = {
  type: 'text',
  label: 'Button label',
  liquid_variable: 'button_label',
  default_value: '',
  visible_if: 'show_button == true',
  validations: { must_not_be_blank: true },
};

const components: ComponentDefinition[] = [
  {
    id: 1,
    name: 'container',
    label: 'Container',
    container: true,
    template: '{{children}}',
    field_definitions: [],
  },
  {
    id: 2,
    name: 'hero',
    label: 'Hero',
    container: false,
    template: '{{headline}}',
    field_definitions: [headline, showButton, buttonLabel],
  },
];

function content(values: EmailContent['component_instances'][number]['field_values']): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Welcome', 'de-DE': 'Willkommen' } } },
    preheader: { branch_content: {} },
    container_component_instance: { id: 'container', component_id: 1, field_values: {} },
    component_instances: [{ id: 'hero-1', component_id: 2, field_values: values }],
  };
}

describe('validateEmailContent', () => {
  it('is valid when every shown field passes its validations in every locale', () => {
    const result = validateEmailContent({
      content: content({
        null_branch: { 'en-US': { headline: { value: 'Hi' } }, 'de-DE': { headline: { value: 'Hallo' } } },
      }),
      components,
      locales: ['en-US', 'de-DE'],
    });
    expect(result).toEqual({ valid: true, validation_errors: {} });
  });

  it('reports by instance, then branch.locale.variable, checking unfilled fields as their default', () => {
    const result = validateEmailContent({
      content: content({ null_branch: { 'en-US': { headline: { value: 'Far too long a headline' } } } }),
      components,
      locales: ['en-US', 'de-DE'],
    });
    expect(result.valid).toBe(false);
    expect(result.validation_errors['hero-1']?.['null_branch.en-US.headline']).toEqual([
      expect.stringMatching(/10/),
    ]);
    // Never filled in: its default is both unchanged and longer than 10 characters.
    expect(result.validation_errors['hero-1']?.['null_branch.de-DE.headline']).toHaveLength(2);
  });

  it('skips fields hidden by visible_if, and checks them once shown', () => {
    const hidden = validateEmailContent({
      content: content({ null_branch: { 'en-US': { headline: { value: 'Hi' } } } }),
      components,
      locales: ['en-US'],
    });
    expect(hidden.valid).toBe(true);
    const shown = validateEmailContent({
      content: content({
        null_branch: { 'en-US': { headline: { value: 'Hi' }, show_button: { value: true } } },
      }),
      components,
      locales: ['en-US'],
    });
    expect(Object.keys(shown.validation_errors['hero-1'] ?? {})).toEqual(['null_branch.en-US.button_label']);
  });

  it('checks every branch of a conditional, and skips locales the instance is hidden in', () => {
    const value = { 'en-US': { headline: { value: 'Hi' } } };
    const result = validateEmailContent({
      content: {
        ...content({}),
        component_instances: [
          {
            id: 'hero-1',
            component_id: 2,
            conditional_id: 5,
            field_values: { gold: value },
            hidden_from_locales: { 'de-DE': true },
          },
        ],
      },
      components,
      locales: ['en-US', 'de-DE'],
      branchKeysOf: (id) => (id === 5 ? ['gold', 'silver'] : undefined),
    });
    expect(Object.keys(result.validation_errors['hero-1'] ?? {})).toEqual(['silver.en-US.headline']);
  });

  it('reports a blank subject per locale and an unknown component', () => {
    const result = validateEmailContent({
      content: {
        ...content({ null_branch: { 'en-US': { headline: { value: 'Hi' } } } }),
        subject: { branch_content: { null_branch: { 'en-US': '  ' } } },
        component_instances: [{ id: 'ghost', component_id: 99, field_values: {} }],
      },
      components,
      locales: ['en-US'],
    });
    expect(result.validation_errors).toEqual({
      subject: { 'null_branch.en-US': ['is blank'] },
      ghost: { component_id: ['is not a component of the email’s design system'] },
    });
  });
});
