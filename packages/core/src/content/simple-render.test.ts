import { describe, expect, it } from 'vitest';
import { contentFromSimpleRender } from './simple-render.ts';

describe('contentFromSimpleRender', () => {
  it('turns the flat request into branch → locale → variable content', () => {
    expect(
      contentFromSimpleRender(
        {
          subject: 'Hello',
          container_component_instance: {
            component_id: 1,
            field_values: { logo_url: 'https://example.com/logo.png' },
          },
          component_instances: [
            {
              component_id: 2,
              field_values: { headline: 'Hi', count: 3, show: true, cleared: null, nested: { no: 1 } },
            },
            { component_id: 3 },
          ],
        },
        'en-GB',
      ),
    ).toEqual({
      subject: { conditional_id: null, branch_content: { null_branch: { 'en-GB': 'Hello' } } },
      preheader: { conditional_id: null, branch_content: { null_branch: { 'en-GB': '' } } },
      container_component_instance: {
        id: 'simple-container',
        component_id: 1,
        conditional_id: null,
        field_values: { null_branch: { 'en-GB': { logo_url: { value: 'https://example.com/logo.png' } } } },
      },
      component_instances: [
        {
          id: 'simple-0',
          component_id: 2,
          conditional_id: null,
          field_values: {
            null_branch: {
              'en-GB': {
                headline: { value: 'Hi' },
                count: { value: 3 },
                show: { value: true },
                cleared: { value: null },
              },
            },
          },
        },
        {
          id: 'simple-1',
          component_id: 3,
          conditional_id: null,
          field_values: { null_branch: { 'en-GB': {} } },
        },
      ],
    });
  });
});
