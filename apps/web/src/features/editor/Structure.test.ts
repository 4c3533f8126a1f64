import type { BrandedComponent } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { offeredComponents, outlineOf } from './Structure.tsx';

function component(id: number, overrides: Partial<BrandedComponent> = {}): BrandedComponent {
  return {
    id,
    name: `c${id}`,
    label: `C${id}`,
    container: false,
    template: '',
    field_definitions: [],
    hidden: false,
    ...overrides,
  };
}

describe('offeredComponents', () => {
  it('offers body components the brand shows and nobody deprecated', () => {
    const components = new Map(
      [
        component(1, { container: true }),
        component(2),
        component(3, { hidden: true }),
        component(4, { deprecated: true }),
      ].map((entry) => [entry.id, entry]),
    );
    expect(offeredComponents(components).map((entry) => entry.id)).toEqual([2]);
  });
});

describe('outlineOf', () => {
  it('keeps the same key while only values change, and a new one when the structure does', () => {
    const content = {
      subject: { branch_content: {} },
      preheader: { branch_content: {} },
      container_component_instance: { id: 'c', component_id: 1, field_values: {} },
      component_instances: [{ id: 'a', component_id: 2, field_values: {} }],
    };
    const edited = {
      ...content,
      component_instances: [
        { id: 'a', component_id: 2, field_values: { null_branch: { 'en-US': { x: { value: 1 } } } } },
      ],
    };
    const renamed = {
      ...content,
      component_instances: [{ id: 'a', name: 'Top', component_id: 2, field_values: {} }],
    };
    expect(outlineOf(edited).key).toBe(outlineOf(content).key);
    expect(outlineOf(renamed).key).not.toBe(outlineOf(content).key);
  });
});
