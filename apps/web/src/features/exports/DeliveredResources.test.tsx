import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DeliveredResources } from './DeliveredResources.tsx';
import type { Export } from './exports-api.ts';

function connectorExport(overrides: Partial<Export>): Export {
  return {
    id: 40,
    organization_id: 1,
    workspace_id: 7,
    connector_id: 3,
    email_id: 5,
    email: { id: 5, name: 'Spring sale', status: 'published' },
    dynamic_content_profile_id: null,
    status: 'completed',
    export_type: 'connector',
    options: { locales: ['en-US', 'de-DE'], image_mode: 'use_cdn' },
    integration_name: 'iterable',
    platform: 'Iterable',
    delivered_resources: {},
    metadata: { conditional_ids: [], personalization_tag_ids: [], image_ids: [] },
    export_errors: {},
    warnings: [],
    progress: { locales_done: 2, locales_total: 2 },
    created_by: null,
    created_at: '2026-11-25T10:00:00.000Z',
    updated_at: '2026-11-25T10:00:01.000Z',
    completed_at: '2026-11-25T10:00:01.000Z',
    download_zip_url: null,
    download_json_url: null,
    download_pdf_url: null,
    open_in_integration_url: null,
    ...overrides,
  };
}

const show = (entry: Export) =>
  render(
    <MantineProvider>
      <DeliveredResources entry={entry} />
    </MantineProvider>,
  );

describe('DeliveredResources', () => {
  it('names per locale the template made or updated, its id, and links to it on the platform', () => {
    show(
      connectorExport({
        delivered_resources: {
          'de-DE': {
            external_id: '902',
            resource_name: 'Frühling',
            updated: true,
            open_url: 'https://app.iterable.com/templates/editor?templateId=902',
          },
          'en-US': {
            external_id: '901',
            resource_name: 'Spring sale (en-US)',
            updated: false,
            open_url: null,
          },
        },
      }),
    );
    const list = screen.getByLabelText('What the export made in Iterable');
    // In the export's locale order.
    expect(list.textContent).toBe(
      'en-US: created template Spring sale (en-US) (id 901)de-DE: updated template Frühling (id 902)',
    );
    expect(screen.getByRole('link', { name: 'Frühling' })).toHaveAttribute(
      'href',
      'https://app.iterable.com/templates/editor?templateId=902',
    );
  });

  it('says so when nothing was made, and while the export is under way', () => {
    const failed = show(
      connectorExport({
        status: 'failed',
        integration_name: 'salesforce_marketing_cloud',
        platform: 'Salesforce Marketing Cloud',
      }),
    );
    expect(screen.getByText('Nothing was made in Salesforce Marketing Cloud')).toBeInTheDocument();
    failed.unmount();
    show(connectorExport({ status: 'in_progress' }));
    expect(screen.getByText('Sending to Iterable…')).toBeInTheDocument();
  });
});
