import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api-error.ts';
import { ImageUploader } from './ImageUploader.tsx';
import type { Image } from './images-api.ts';

const uploads = vi.hoisted(() => ({ uploadImage: vi.fn() }));
vi.mock('./images-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./images-api.ts')>()),
  uploadImage: uploads.uploadImage,
}));

describe('ImageUploader', () => {
  it('uploads several files at once and tells, file by file, which failed and why', async () => {
    uploads.uploadImage.mockImplementation(
      (_workspaceId: number, file: File, onProgress: (f: number) => void) => {
        onProgress(0.5);
        if (file.name === 'renamed.png') {
          return Promise.reject(
            new ApiError(422, {
              message: 'Failed to save',
              errors: { file: ['must be a JPEG, PNG, GIF or WebP image'] },
            }),
          );
        }
        return Promise.resolve({ id: 'img_1', name: 'hero' } as Image);
      },
    );
    const onUploaded = vi.fn();
    const { container } = render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <ImageUploader workspaceId={3} onUploaded={onUploaded} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(input, [
      new File(['png bytes'], 'hero.png', { type: 'image/png' }),
      new File(['not an image'], 'renamed.png', { type: 'image/png' }),
      new File(['text'], 'notes.txt', { type: 'text/plain' }),
      new File([new Uint8Array(6 * 1024 * 1024)], 'huge.jpg', { type: 'image/jpeg' }),
    ]);

    const lines = within(await screen.findByRole('list', { name: 'Uploads' }));
    const line = (name: string) => lines.getByText(name).closest('li') as HTMLElement;
    expect(await within(line('hero.png')).findByText('Uploaded')).toBeInTheDocument();
    expect(
      await within(line('renamed.png')).findByText('The file must be a JPEG, PNG, GIF or WebP image.'),
    ).toBeInTheDocument();
    expect(within(line('notes.txt')).getByText('Not a JPEG, PNG, GIF or WebP image.')).toBeInTheDocument();
    expect(
      within(line('huge.jpg')).getByText(/^Too large \(6\.0 MB\): images can be up to 5\.0 MB\.$/),
    ).toBeInTheDocument();
    // Refused files never reach the server.
    expect(uploads.uploadImage).toHaveBeenCalledTimes(2);
    expect(onUploaded).toHaveBeenCalledTimes(1);
  });
});
