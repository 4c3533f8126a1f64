import type { EditorDocument } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { layoutContentFrom } from './layout-content.ts';

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
