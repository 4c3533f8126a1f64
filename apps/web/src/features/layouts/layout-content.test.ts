import {
  addLocale,
  applyCommand,
  type EditorDocument,
  removeLocale,
  sameDocument,
  setDefaultLocale,
  setFieldValue,
} from '@letterset/core';
import { describe, expect, it } from 'vitest';
import {
  type Layout,
  layoutChanges,
  layoutContentFrom,
  layoutDocument,
  validateLayoutDocument,
} from './layout-content.ts';

const document: EditorDocument = {
  locales: ['en-US'],
  defaultLocale: 'en-US',
  content: {
    subject: { branch_content: { null_branch: { 'en-US': 'Spring sale' } } },
    preheader: { branch_content: {} },
    container_component_instance: {
      id: 'c',
      component_id: 1,
      field_values: { null_branch: { 'en-US': { brand_color: { value: '#ff0000' } } } },
    },
    component_instances: [
      {
        id: 'h',
        name: 'Intro',
        component_id: 2,
        conditional_id: 7,
        field_values: { gold: { 'en-US': { headline: { value: 'Gold news' } } } },
      },
    ],
  },
};

describe('layoutContentFrom', () => {
  it('keeps the container and components with their values, and drops subject and preheader', () => {
    expect(layoutContentFrom(document, { keepValues: true })).toEqual({
      container_component_instance: document.content.container_component_instance,
      component_instances: document.content.component_instances,
    });
  });

  it('resets every field to its default but keeps the arrangement, names and conditionals', () => {
    expect(layoutContentFrom(document, { keepValues: false })).toEqual({
      container_component_instance: { id: 'c', component_id: 1, field_values: {} },
      component_instances: [{ id: 'h', name: 'Intro', component_id: 2, conditional_id: 7, field_values: {} }],
    });
  });
});

/** The layout the server would answer after a PATCH of these changes. */
const savedLayout = (changes: ReturnType<typeof layoutChanges>) =>
  ({ content: changes.content, locales: changes.locales }) as unknown as Layout;

describe('the layout editor’s document', () => {
  const layout = savedLayout(layoutChanges(document));

  it('is the layout’s content, in its locales, the first the default', () => {
    const opened = layoutDocument({ ...layout, locales: ['de-DE', 'en-US'] });
    expect(opened.locales).toEqual(['de-DE', 'en-US']);
    expect(opened.defaultLocale).toBe('de-DE');
    expect(opened.content.subject).toEqual(document.content.subject);
    expect(opened.content.component_instances).toEqual(document.content.component_instances);
  });

  it('keeps a subject and preheader only once written: a layout without them is saved without them', () => {
    expect(layoutChanges(document).content.subject).toEqual(document.content.subject);
    expect(layoutChanges(document).content).not.toHaveProperty('preheader');
    const withoutText = layoutDocument({
      content: layoutContentFrom(document, { keepValues: true }),
      locales: ['en-US'],
    } as unknown as Layout);
    expect(withoutText.content.subject).toEqual({ branch_content: {} });
    expect(layoutChanges(withoutText).content).toEqual(layoutContentFrom(document, { keepValues: true }));
  });

  it('opens a layout saved without locales in en-US', () => {
    expect(layoutDocument({ ...layout, locales: [] }).locales).toEqual(['en-US']);
  });

  it('reopens as it was saved, whatever was done to its values and locales', () => {
    // A reload must find no difference with what was saved, or the editor would ask about a draft.
    let edited = layoutDocument(layout);
    const steps = [
      setFieldValue({ instanceId: 'h', branch: 'gold', locale: 'en-US', variable: 'headline' }, 'New'),
      addLocale('fr-FR'),
      setFieldValue({ instanceId: 'h', branch: 'gold', locale: 'fr-FR', variable: 'headline' }, 'Nouveau'),
      addLocale('de-DE'),
      removeLocale('de-DE'),
    ];
    for (const step of steps) {
      edited = applyCommand(edited, step);
      expect(sameDocument(layoutDocument(savedLayout(layoutChanges(edited))), edited)).toBe(true);
    }
  });

  it('saves the default locale first, since a layout’s first locale is its default', () => {
    const withFrench = applyCommand(layoutDocument(layout), addLocale('fr-FR'));
    const frenchFirst = applyCommand(withFrench, setDefaultLocale('fr-FR'));
    expect(layoutChanges(frenchFirst).locales).toEqual(['fr-FR', 'en-US']);
    expect(layoutDocument(savedLayout(layoutChanges(frenchFirst))).defaultLocale).toBe('fr-FR');
  });
});

describe('validateLayoutDocument', () => {
  const components = [
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
      field_definitions: [
        {
          liquid_variable: 'headline',
          label: 'Headline',
          type: 'text',
          default_value: '',
          validations: { must_not_be_blank: true },
        },
      ],
    },
  ] as never;

  it('reports a blank required field in every branch of the conditional, but never a blank subject', () => {
    const result = validateLayoutDocument(layoutDocument(layout()), components, [
      { id: 7, branches: [{ key: 'gold' }, { key: 'silver' }] },
    ]);
    expect(result.valid).toBe(false);
    expect(Object.keys(result.validation_errors)).toEqual(['h']);
    expect(Object.keys(result.validation_errors.h ?? {})).toEqual(['silver.en-US.headline']);
  });

  function layout() {
    return savedLayout(layoutChanges(document));
  }
});
