import type { BrandedComponent, EmailContent } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { aiPinCoordinates } from './ai-review.ts';
import {
  cleanCommentBody,
  maxReviewCommentLength,
  maxReviewComments,
  readReviewAnswer,
  reviewSections,
} from './ai-review-prompt.ts';

const component = (id: number, name: string, extra: Partial<BrandedComponent> = {}): BrandedComponent => ({
  id,
  name,
  label: name.toUpperCase(),
  container: false,
  hidden: false,
  template: '',
  field_definitions: [
    { type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'Default' },
    { type: 'code', label: 'Code', liquid_variable: 'code', default_value: '<b>' },
    { type: 'text', label: 'Secret', liquid_variable: 'secret', default_value: '', hidden_from_ai: true },
  ],
  ...extra,
});

describe('an AI review', () => {
  it('lists the sections that show in the locale, with their values by label, every branch of conditional ones', () => {
    const content: EmailContent = {
      subject: { branch_content: {} },
      preheader: { branch_content: {} },
      container_component_instance: { id: 'container', component_id: 1, field_values: {} },
      component_instances: [
        {
          id: 'a',
          name: 'Intro',
          component_id: 2,
          field_values: { null_branch: { 'fr-FR': { text: { value: 'Bonjour' } } } },
        },
        { id: 'b', component_id: 2, field_values: {}, hidden_from_locales: { 'fr-FR': true } },
        {
          id: 'c',
          component_id: 2,
          conditional_id: 4,
          field_values: { vip: { 'fr-FR': { text: { value: 'Cher client' } } }, other: {} },
        },
        { id: 'd', component_id: 99, field_values: {} },
      ],
    };
    const components = [
      component(1, 'container', { container: true, field_definitions: [] }),
      component(2, 'heading'),
    ];
    expect(reviewSections(content, components, 'fr-FR')).toEqual([
      {
        component_instance_id: 'a',
        component: 'heading',
        component_label: 'HEADING',
        instance_name: 'Intro',
        values: { Text: 'Bonjour' },
      },
      {
        component_instance_id: 'c',
        component: 'heading',
        component_label: 'HEADING',
        branches: { vip: { Text: 'Cher client' }, other: { Text: 'Default' } },
      },
    ]);
  });

  it('keeps the valid comments and reports unknown sections and empty bodies for a repair', () => {
    const read = readReviewAnswer(
      {
        comments: [
          { component_instance_id: 'a', body: '  Fine wording, but {{ name }} @[Ada](user:1)  ' },
          { component_instance_id: 'zzz', body: 'Where?' },
          { component_instance_id: null, body: ' ' },
          { component_instance_id: null, body: 'The subject is too long.' },
        ],
      },
      new Set(['a']),
    );
    expect(read.result).toEqual([
      { componentInstanceId: 'a', body: 'Fine wording, but { { name }} @Ada' },
      { componentInstanceId: null, body: 'The subject is too long.' },
    ]);
    expect(read.problems.map((problem) => problem.path)).toEqual([
      'comments.1.component_instance_id',
      'comments.2.body',
    ]);
    expect(readReviewAnswer({ nope: true }, new Set()).problems).toEqual([
      { path: 'comments', message: 'must be an array of comments' },
    ]);
    const many = { comments: Array.from({ length: 30 }, () => ({ component_instance_id: null, body: 'x' })) };
    expect(readReviewAnswer(many, new Set()).result).toHaveLength(maxReviewComments);
  });

  it('cuts long bodies and spreads the pins of one section around its top centre', () => {
    const long = cleanCommentBody('word '.repeat(400));
    expect(long.length).toBeLessThanOrEqual(maxReviewCommentLength);
    expect(long.endsWith('…')).toBe(true);
    expect([0, 1, 2, 3].map(aiPinCoordinates)).toEqual([
      { center_offset_x_px: 0, y: 12 },
      { center_offset_x_px: 28, y: 12 },
      { center_offset_x_px: -28, y: 12 },
      { center_offset_x_px: 56, y: 12 },
    ]);
  });
});
