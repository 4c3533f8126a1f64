import type { AiComponent, FieldDefinition, RewritableSection } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import {
  composedProblemPlace,
  describeProblemsAt,
  designSystemProblemPlace,
  rewrittenProblemPlace,
} from './generation-problems.ts';

function component(id: number, name: string, label: string, fields: [string, string][]): AiComponent {
  const definitions: FieldDefinition[] = fields.map(([liquid_variable, fieldLabel]) => ({
    type: 'text',
    label: fieldLabel,
    liquid_variable,
    default_value: '',
  }));
  return {
    component: {
      id,
      name,
      label,
      container: false,
      template: '',
      field_definitions: definitions,
      hidden: false,
    },
    fields: definitions,
  };
}

const heading = component(1, 'heading', 'Heading', [
  ['text', 'Text'],
  ['level', 'Level'],
]);
const button = component(2, 'button', 'Button', [
  ['text', 'Label'],
  ['url', 'Link'],
]);

describe('where a generation problem is, in the editor’s words', () => {
  it('names a composed section’s field by the component’s and the field’s labels', () => {
    const answer = {
      sections: [
        { component: 'heading', values: {} },
        { component: 'mystery', values: {} },
        { component: 'button', values: {} },
        { component: 'button', values: {} },
      ],
    };
    const placeOf = composedProblemPlace(answer, [heading, button]);
    expect(placeOf('sections[0].values.level')).toBe('Heading › Level');
    expect(placeOf('sections[1].component')).toBe('Section 2');
    expect(placeOf('sections[2].values.url')).toBe('Button 1 › Link');
    expect(placeOf('sections[3].values')).toBe('Button 2');
    expect(placeOf('subject')).toBe('Subject');
    expect(placeOf('')).toBe('The AI’s answer');
  });

  it('names a rewritten section’s field the same way, by the section’s instance', () => {
    const sections: RewritableSection[] = [
      { instanceId: 'a-1', component: heading, current: {} },
      { instanceId: 'b-2', component: button, current: {} },
    ];
    const placeOf = rewrittenProblemPlace(sections);
    expect(placeOf('sections.b-2.url')).toBe('Button › Link');
    expect(placeOf('sections.a-1')).toBe('Heading');
    expect(placeOf('preheader')).toBe('Preheader');
  });

  it('lists the problems one a line, each at its place', () => {
    const placeOf = composedProblemPlace({ sections: [{ component: 'button' }] }, [button]);
    expect(
      describeProblemsAt(
        [
          { path: 'sections[0].values.url', message: 'must be an http(s) or mailto link' },
          { path: 'subject', message: 'must be non-empty text' },
        ],
        placeOf,
      ),
    ).toBe('- Button › Link: must be an http(s) or mailto link\n- Subject: must be non-empty text');
  });
});

describe('where a design-system generation problem is, in the component builder’s words', () => {
  const placeOf = designSystemProblemPlace(
    [
      { index: 0, component: { label: 'Hero', field_definitions: [{ label: 'Title' }, { label: 'Image' }] } },
      { index: 2, component: { label: '', field_definitions: [] } },
    ],
    { field_definitions: [{ label: 'Background' }] },
  );

  it('names components by number and label, fields by label, tokens by number', () => {
    expect(placeOf('components.0 (hero).template')).toBe('Component 1 “Hero” › Template');
    expect(placeOf('components.0 (hero).field_definitions.1.liquid_variable')).toBe(
      'Component 1 “Hero” › Field “Image” › Liquid variable',
    );
    expect(placeOf('components.2.name')).toBe('Component 3 › Name');
    expect(placeOf('components.5 (gone)')).toBe('Component 6');
    expect(placeOf('container.template')).toBe('Container › Template');
    expect(placeOf('container.field_definitions.0.default_value')).toBe(
      'Container › Field “Background” › Default value',
    );
    expect(placeOf('design_tokens.2.path')).toBe('Design token 3 › Path');
    expect(placeOf('design_tokens')).toBe('Design tokens');
    expect(placeOf('components')).toBe('Components');
    expect(placeOf('')).toBe('The AI’s answer');
  });

  it('lists problems one a line at those places', () => {
    expect(
      describeProblemsAt(
        [
          { path: 'components.0 (hero).field_definitions.0.label', message: "can't be blank" },
          { path: 'design_tokens.0.value', message: 'must be a string' },
        ],
        placeOf,
      ),
    ).toBe(
      "- Component 1 “Hero” › Field “Title” › Label: can't be blank\n- Design token 1 › Value: must be a string",
    );
  });
});
