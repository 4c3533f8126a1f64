import { setGlobalLinkTrackingParameter, setLinkTrackingParameter } from '@letterset/core';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { LinkTrackingProfile } from '../editor-api.ts';
import { instanceId, renderableSession } from '../test-session.tsx';
import { GlobalLinkTrackingFields, LinkTrackingFields } from './LinkTrackingFields.tsx';

const profile: LinkTrackingProfile = {
  id: 3,
  name: 'UTM',
  parameters: [
    { type: 'fixed_value', parameter: 'utm_source', value: 'letterset' },
    { type: 'editor_global_field_value', parameter: 'utm_campaign' },
    { type: 'editor_field_value', parameter: 'utm_content' },
  ],
  custom_template: null,
  organization_id: 1,
  created_at: '2026-11-21T10:30:00.000Z',
  updated_at: '2026-11-21T10:30:00.000Z',
};

const link = { instanceId, branch: 'null_branch', locale: 'en-US', variable: 'link' };

describe('LinkTrackingFields', () => {
  it('stores each per-link parameter on the link value being edited', async () => {
    const { editor, Live } = renderableSession({ linkTrackingProfile: profile });
    const dispatch = vi.spyOn(editor, 'dispatch');
    render(
      <Live>
        {(document) => (
          <LinkTrackingFields
            target={link}
            fieldLabel="Link"
            stored={document.content.component_instances[0]?.field_values.null_branch?.['en-US']?.link}
            shownValue="https://example.com/"
          />
        )}
      </Live>,
    );
    // Only the profile's editor_field_value parameters get an input here.
    expect(screen.queryByRole('textbox', { name: 'utm_campaign' })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'utm_content' }), 'hero');
    expect(dispatch).toHaveBeenLastCalledWith(setLinkTrackingParameter(link, 'utm_content', 'hero'));
    expect(
      editor.getState().document.content.component_instances[0]?.field_values.null_branch?.['en-US']?.link,
    ).toEqual({ value: 'https://example.com/', link_tracking_parameters: { utm_content: 'hero' } });

    await userEvent.clear(screen.getByRole('textbox', { name: 'utm_content' }));
    expect(dispatch).toHaveBeenLastCalledWith(setLinkTrackingParameter(link, 'utm_content', null));
  });

  it('stores a link still showing its default before tracking it', async () => {
    const { editor, Live } = renderableSession({ linkTrackingProfile: profile });
    const target = { ...link, variable: 'other_link' };
    render(
      <Live>
        {() => (
          <LinkTrackingFields
            target={target}
            fieldLabel="Other"
            stored={undefined}
            shownValue="https://d.example/"
          />
        )}
      </Live>,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'utm_content' }), 'x');
    expect(
      editor.getState().document.content.component_instances[0]?.field_values.null_branch?.['en-US']
        ?.other_link,
    ).toEqual({ value: 'https://d.example/', link_tracking_parameters: { utm_content: 'x' } });
  });

  it('shows nothing without a profile', () => {
    const { Live } = renderableSession();
    render(
      <Live>
        {() => <LinkTrackingFields target={link} fieldLabel="Link" stored={undefined} shownValue="" />}
      </Live>,
    );
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

describe('GlobalLinkTrackingFields', () => {
  it('sets the email-wide parameters', async () => {
    const { editor, Live } = renderableSession({ linkTrackingProfile: profile });
    const dispatch = vi.spyOn(editor, 'dispatch');
    render(
      <Live>
        {(document) => <GlobalLinkTrackingFields values={document.content.global_link_tracking_parameters} />}
      </Live>,
    );
    expect(screen.getAllByRole('textbox')).toHaveLength(1);
    await userEvent.type(screen.getByRole('textbox', { name: 'utm_campaign' }), 'spring');
    expect(dispatch).toHaveBeenLastCalledWith(setGlobalLinkTrackingParameter('utm_campaign', 'spring'));
    expect(editor.getState().document.content.global_link_tracking_parameters).toEqual({
      utm_campaign: 'spring',
    });
  });
});
