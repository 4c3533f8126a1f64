import type { components } from '@letterset/api-client';
import { definitionsFromImport, starterDesignSystem } from '@letterset/core';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { brandProfilesQuery } from '../brand-profiles/brand-profiles-api.ts';
import { designSystemQuery } from '../editor/editor-api.ts';
import { LayoutThumbnail } from './LayoutThumbnail.tsx';

type Layout = components['schemas']['Layout'];

const workspaceId = 3;
const starter = definitionsFromImport(
  starterDesignSystem({ imagesUrl: 'https://files.example.com/starter' }),
  {
    designSystemId: 5,
  },
);
const headingId = starter.components.find((component) => component.name === 'heading')?.id ?? 0;

const layout = {
  id: 9,
  name: 'Monthly news',
  email_design_system_id: 5,
  brand_profile_id: null,
  locales: ['de-DE'],
  content: {
    container_component_instance: { id: 'c', component_id: starter.containerComponentId, field_values: {} },
    component_instances: [
      {
        id: 'h',
        component_id: headingId,
        field_values: { null_branch: { 'de-DE': { text: { value: 'Neuigkeiten des Monats' } } } },
      },
    ],
  },
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
} as unknown as Layout;

describe('LayoutThumbnail', () => {
  it('renders the layout in its first locale with its design system, in a frame that runs no script', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(designSystemQuery(workspaceId, 5).queryKey, {
      system: starter.designSystem,
      components: starter.components,
    } as never);
    queryClient.setQueryData(brandProfilesQuery(workspaceId, 5).queryKey, {
      results: [],
      pagination: { per: 100, page: 1, total: 0 },
    } as never);
    render(
      <MantineProvider>
        <QueryClientProvider client={queryClient}>
          <LayoutThumbnail workspaceId={workspaceId} layout={layout} width={165} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    const frame = screen.getByTitle('Preview of Monthly news') as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.srcdoc).toContain('Neuigkeiten des Monats');
    expect(frame.srcdoc).toContain('lang="de-DE"');
    expect(frame.style.transform).toBe('scale(0.25)');
  });

  it('shows a placeholder while the design system loads', () => {
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <LayoutThumbnail workspaceId={workspaceId} layout={layout} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    expect(screen.getByLabelText('Loading the preview of Monthly news')).toBeInTheDocument();
    expect(screen.queryByTitle('Preview of Monthly news')).toBeNull();
  });
});
