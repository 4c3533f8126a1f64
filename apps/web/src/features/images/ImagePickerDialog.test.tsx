import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../app/session.ts';
import type { AiSettings } from '../ai-settings/ai-settings-api.ts';
import { ImagePickerDialog } from './ImagePickerDialog.tsx';
import type { Image } from './images-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));

// The prompt box grows with its text, listening for web fonts loading, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

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

/** The organization's provider as GET /api/v1/ai_settings answers it. */
function aiSettings(change: Partial<AiSettings> = {}): AiSettings {
  return {
    configured: true,
    source: 'organization',
    provider: 'openai',
    base_url: null,
    model: 'gpt-4.1-mini',
    image_model: 'gpt-image-1',
    api_key: '••••abcd',
    environment_default: null,
    updated_at: '2026-11-01T00:00:00.000Z',
    ...change,
  };
}

const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });

function renderPicker(permissions: string[], fieldImageUrl?: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['me'], { permissions } as unknown as Me);
  const onPick = vi.fn();
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <ImagePickerDialog
          workspaceId={7}
          opened
          onClose={onClose}
          onPick={onPick}
          {...(fieldImageUrl ? { fieldImageUrl } : {})}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { onPick, onClose };
}

describe('ImagePickerDialog', () => {
  let settings: AiSettings;

  beforeEach(() => {
    settings = aiSettings();
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
    apiCalls.GET.mockImplementation((path: string, options?: { params: { query: { search?: string } } }) => {
      if (path === '/api/v1/ai_settings') return ok(settings);
      const results = options?.params.query.search
        ? [image('img_b', 'Logo on dark')]
        : [image('img_a', 'Spring hero'), image('img_b', 'Logo on dark')];
      return ok({ results, pagination: { page: 1, per: 12, total: results.length } });
    });
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

  describe('generating an image', () => {
    const prompt = 'A red fox asleep in autumn leaves';

    async function fillIn() {
      await userEvent.click(await screen.findByRole('button', { name: 'Generate image' }));
      await userEvent.type(screen.getByRole('textbox', { name: /Describe the image/ }), prompt);
      await userEvent.click(screen.getByRole('radio', { name: 'Landscape · 1536 × 1024' }));
      await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    }

    it('sends the prompt and size, shows that it is generating, then picks the new image', async () => {
      let answer: (value: unknown) => void = () => {};
      apiCalls.POST.mockReturnValue(new Promise((resolve) => (answer = resolve)));
      const { onPick, onClose } = renderPicker(['create_library_images']);
      await fillIn();

      expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/images/generate', {
        params: { path: { workspace_id: 7 } },
        body: { prompt, size: '1536x1024' },
      });
      expect(await screen.findByText(/^Generating the image…/)).toBeInTheDocument();
      expect(onPick).not.toHaveBeenCalled();

      answer({
        data: { ...image('img_new', 'A red fox asleep'), description: prompt },
        response: { ok: true, status: 200 },
      });
      await waitFor(() =>
        expect(onPick).toHaveBeenCalledWith({
          id: 'img_new',
          url: 'https://cdn.example.test/img_new.png',
          name: 'A red fox asleep',
        }),
      );
      expect(onClose).toHaveBeenCalled();
    });

    it('generates for an image field in the proportion of the image it shows', async () => {
      // The browser loads the field's current image: 600 × 200 pixels.
      class LoadedImage {
        naturalWidth = 600;
        naturalHeight = 200;
        onload: (() => void) | null = null;
        set src(_url: string) {
          queueMicrotask(() => this.onload?.());
        }
      }
      vi.stubGlobal('Image', LoadedImage);
      try {
        apiCalls.POST.mockResolvedValue({
          data: image('img_wide', 'A beach'),
          response: { ok: true, status: 200 },
        });
        renderPicker(['create_library_images'], 'https://cdn.example.test/banner.png');
        await userEvent.click(await screen.findByRole('button', { name: 'Generate image' }));
        const matching = await screen.findByRole('checkbox', {
          name: /In the field’s proportion \(600 × 200\)/,
        });
        expect(matching).toBeChecked();
        expect(screen.queryByRole('radio', { name: 'Landscape · 1536 × 1024' })).not.toBeInTheDocument();
        await userEvent.type(screen.getByRole('textbox', { name: /Describe the image/ }), prompt);
        await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
        expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/images/generate', {
          params: { path: { workspace_id: 7 } },
          body: { prompt, aspect_ratio: { width: 600, height: 200 } },
        });
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('says in plain words why the provider refused', async () => {
      const message =
        'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.';
      apiCalls.POST.mockResolvedValue({ error: { message }, response: { ok: false, status: 502 } });
      const { onPick } = renderPicker(['create_library_images']);
      await fillIn();
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(onPick).not.toHaveBeenCalled();
    });

    it('shows a notice instead when the organization has no AI provider', async () => {
      settings = aiSettings({
        configured: false,
        source: 'none',
        provider: null,
        model: null,
        image_model: null,
      });
      renderPicker(['create_library_images']);
      expect(await screen.findByTestId('image-generation-notice')).toHaveTextContent(
        /AI is not set up.*an Admin can set up a provider in Settings › AI/,
      );
      expect(screen.queryByRole('button', { name: 'Generate image' })).not.toBeInTheDocument();
    });

    it('shows a notice instead when the provider makes no images', async () => {
      settings = aiSettings({ provider: 'anthropic', model: 'claude-sonnet-4-5', image_model: null });
      renderPicker(['create_library_images']);
      expect(await screen.findByTestId('image-generation-notice')).toHaveTextContent(/no image model/);
    });

    it('is not offered to roles that may not add images', async () => {
      renderPicker([]);
      await screen.findByRole('button', { name: 'Choose Spring hero' });
      expect(screen.queryByRole('button', { name: 'Generate image' })).not.toBeInTheDocument();
      expect(screen.queryByTestId('image-generation-notice')).not.toBeInTheDocument();
    });
  });
});
