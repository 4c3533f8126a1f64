import { Button, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Image } from './images-api.ts';
import { useDeleteImage } from './useDeleteImage.ts';

const apiCalls = vi.hoisted(() => ({ DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));

const usedImage = { id: 'img_9', name: 'Spring hero' } as Image;

function DeleteButton() {
  const remove = useDeleteImage(4);
  return <Button onClick={() => remove(usedImage)}>Delete it</Button>;
}

function renderButton() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <ModalsProvider>
          <DeleteButton />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const usedByEmails = {
  data: undefined,
  error: {
    message: 'Failed to save',
    errors: {
      image: ['is used by emails ("Welcome", "Spring sale"); delete with force=true to remove it anyway'],
    },
  },
  response: { ok: false, status: 422 },
};
const deleted = { data: undefined, error: undefined, response: { ok: true, status: 204 } };

describe('useDeleteImage', () => {
  beforeEach(() => apiCalls.DELETE.mockReset());

  it('names the emails that show the image and deletes it only on "Delete anyway"', async () => {
    apiCalls.DELETE.mockResolvedValueOnce(usedByEmails).mockResolvedValueOnce(deleted);
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Delete it' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete image' })).getByRole('button', {
        name: 'Delete',
      }),
    );

    const warning = await screen.findByRole('dialog', { name: 'This image is used in emails' });
    expect(warning).toHaveTextContent(
      'This image is used by emails ("Welcome", "Spring sale"). Those emails would show a broken image.',
    );
    expect(apiCalls.DELETE).toHaveBeenCalledTimes(1);
    expect(apiCalls.DELETE.mock.calls[0]?.[1]).toEqual({
      params: { path: { workspace_id: 4, id: 'img_9' }, query: {} },
    });

    await userEvent.click(within(warning).getByRole('button', { name: 'Delete anyway' }));
    await waitFor(() => expect(apiCalls.DELETE).toHaveBeenCalledTimes(2));
    expect(apiCalls.DELETE.mock.calls[1]?.[1]).toEqual({
      params: { path: { workspace_id: 4, id: 'img_9' }, query: { force: true } },
    });
  });

  it('keeps the image when the user cancels the second question', async () => {
    apiCalls.DELETE.mockResolvedValueOnce(usedByEmails);
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Delete it' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete image' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    const warning = await screen.findByRole('dialog', { name: 'This image is used in emails' });
    await userEvent.click(within(warning).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(apiCalls.DELETE).toHaveBeenCalledTimes(1);
  });
});
