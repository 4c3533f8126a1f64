import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../app/session.ts';
import { ImagePickerDialog } from './ImagePickerDialog.tsx';
import type { Image } from './images-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));

function image(id: string, name: string): Image {
  return {
    id,
    name,
    description: null,
    filename: `${name}.png`,
    width: 600,
    height: 300,
    file_size: 20_480,
    extension: 'png',
    animated: false,
    public_url: `https://cdn.example.test/${id}.png`,
    thumbnail_url: `https://cdn.example.test/${id}-thumbnail.webp`,
    organization_id: 1,
    workspace_id: 7,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
  };
}

function renderPicker(permissions: string[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['me'], { permissions } as unknown as Me);
  const onPick = vi.fn();
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <ImagePickerDialog workspaceId={7} opened onClose={onClose} onPick={onPick} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { onPick, onClose };
}

describe('ImagePickerDialog', () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.GET.mockImplementation(
      (_path: string, { params }: { params: { query: { search?: string } } }) => {
        const results = params.query.search
          ? [image('img_b', 'Logo on dark')]
          : [image('img_a', 'Spring hero'), image('img_b', 'Logo on dark')];
        return Promise.resolve({
          data: { results, pagination: { page: 1, per: 12, total: results.length } },
          response: { ok: true, status: 200 },
        });
      },
    );
  });

  it("hands over the chosen image's id, public URL and name, then closes", async () => {
    const { onPick, onClose } = renderPicker([]);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Logo on dark' }));
    expect(onPick).toHaveBeenCalledWith({
      id: 'img_b',
      url: 'https://cdn.example.test/img_b.png',
      name: 'Logo on dark',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('searches the workspace library', async () => {
    renderPicker([]);
    await screen.findByRole('button', { name: 'Choose Spring hero' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search images' }), 'logo');
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Choose Spring hero' })).not.toBeInTheDocument(),
    );
    expect(apiCalls.GET).toHaveBeenLastCalledWith('/api/v1/workspaces/{workspace_id}/images', {
      params: { path: { workspace_id: 7 }, query: { page: 1, per: 12, search: 'logo' } },
    });
  });

  it('offers uploading only to roles that may upload', async () => {
    renderPicker([]);
    await screen.findByRole('button', { name: 'Choose Spring hero' });
    expect(screen.queryByText(/^Drag an image here/)).not.toBeInTheDocument();
  });

  it('lets roles with create_library_images drop files to upload', async () => {
    renderPicker(['create_library_images']);
    expect(await screen.findByText('Drag an image here or click to choose a file')).toBeInTheDocument();
  });
});
