import type { AiComponent, FieldDefinition, RewritableSection } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { composedProblemPlace, describeProblemsAt, rewrittenProblemPlace } from './generation-problems.ts';

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
