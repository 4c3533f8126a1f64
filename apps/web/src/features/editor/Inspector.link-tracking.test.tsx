import type { BrandedComponent } from '@letterset/core';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LinkTrackingProfile } from './editor-api.ts';
import { Inspector } from './Inspector.tsx';
import { renderableSession } from './test-session.tsx';

const button = {
  id: 2,
  label: 'Button',
  container: false,
  field_definitions: [
    { label: 'Link', liquid_variable: 'link', type: 'url', default_value: 'https://example.com/' },
    {
      label: 'Unsubscribe',
      liquid_variable: 'unsubscribe',
      type: 'url',
      default_value: 'https://example.com/unsubscribe',
      skip_link_tracking: true,
    },
  ],
} as unknown as BrandedComponent;

const profile = {
  id: 3,
  name: 'UTM',
  parameters: [{ type: 'editor_field_value', parameter: 'utm_content' }],
  custom_template: null,
} as unknown as LinkTrackingProfile;

/** The inspector of the session's instance, made of `component`, with the profile above. */
function renderInspector(component: BrandedComponent) {
  const { editor, Live } = renderableSession({
    componentsById: new Map([[2, component]]),
    linkTrackingProfile: profile,
  });
  render(
    <Live>
      {(document) => {
        const instance = document.content.component_instances[0];
        return instance ? <Inspector instance={instance} defaultLocale="en-US" /> : null;
      }}
    </Live>,
  );
  return editor;
}

describe('Inspector link tracking', () => {
  it('offers per-link parameters under url fields that are tracked, and stores them on that field', async () => {
    const editor = renderInspector(button);
    expect(screen.getAllByRole('textbox', { name: 'utm_content' })).toHaveLength(1);
    const group = screen.getByRole('group', { name: 'Link tracking for Link' });
    await userEvent.type(within(group).getByRole('textbox', { name: 'utm_content' }), 'cta');
    const values = editor.getState().document.content.component_instances[0]?.field_values;
    expect(values?.null_branch?.['en-US']?.link?.link_tracking_parameters).toEqual({ utm_content: 'cta' });
    expect(values?.null_branch?.['en-US']?.unsubscribe).toBeUndefined();
  });

  it('offers the per-link parameters under rich text too, for every link in it', async () => {
    const article = {
      id: 2,
      label: 'Article',
      container: false,
      field_definitions: [
        {
          label: 'Body',
          liquid_variable: 'body',
          type: 'rich_text',
          default_value: '<p>Read <a href="https://example.com/more">more</a></p>',
        },
      ],
    } as unknown as BrandedComponent;
    const editor = renderInspector(article);
    const group = screen.getByRole('group', { name: 'Link tracking for Body' });
    await userEvent.type(within(group).getByRole('textbox', { name: 'utm_content' }), 'story');
    const body =
      editor.getState().document.content.component_instances[0]?.field_values.null_branch?.['en-US']?.body;
    // The shown default is stored first, so the parameter has a value to belong to.
    expect(body).toEqual({
      value: '<p>Read <a href="https://example.com/more">more</a></p>',
      link_tracking_parameters: { utm_content: 'story' },
    });
  });
});
