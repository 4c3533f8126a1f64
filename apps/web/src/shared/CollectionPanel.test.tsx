import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CollectionPanel, type Page } from './CollectionPanel.tsx';

const shown = vi.hoisted(() => vi.fn());
vi.mock('@mantine/notifications', () => ({ notifications: { show: shown } }));

interface Feed {
  id: number;
  name: string;
}

const queryKey = ['feeds'];

function FeedsScreen({
  server,
  permissions,
  onRun,
}: {
  server: { list: (page: number) => Promise<Page<Feed>>; remove: (feed: Feed) => Promise<unknown> };
  permissions: { create: boolean; update: boolean; delete: boolean };
  onRun: (feed: Feed) => void;
}) {
  const [page, setPage] = useState(1);
  const query = useQuery({ queryKey: [...queryKey, page], queryFn: () => server.list(page) });
  return (
    <CollectionPanel
      description="Feeds bring outside content into emails."
      noun="feed"
      query={query}
      onPage={setPage}
      queryKey={queryKey}
      headers={['Name']}
      cells={(feed) => [feed.name]}
      nameOf={(feed) => feed.name}
      permissions={permissions}
      renderForm={(feed, close) => (
        <div role="dialog" aria-label={feed ? `Edit ${feed.name}` : 'New feed'}>
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      )}
      deleteItem={server.remove}
      emptyHint="Add a feed to use its items in emails."
      moreRowActions={(feed) => [{ label: 'Run now', onClick: () => onRun(feed) }]}
    />
  );
}

const everything = { create: true, update: true, delete: true };

function renderScreen(feeds: Feed[], permissions = everything) {
  let stored = [...feeds];
  const server = {
    list: vi.fn(async (page: number) => ({
      results: stored,
      pagination: { page, per: 20, total: stored.length },
    })),
    remove: vi.fn(async (feed: Feed) => {
      stored = stored.filter((each) => each.id !== feed.id);
    }),
  };
  const onRun = vi.fn();
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ModalsProvider>
          <FeedsScreen server={server} permissions={permissions} onRun={onRun} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { server, onRun };
}

async function openRowMenu(name: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
}

describe('CollectionPanel', { timeout: 20_000 }, () => {
  beforeEach(() => shown.mockReset());

  it('offers to create the first item when the list is empty, and only to those who may', async () => {
    renderScreen([]);
    expect(await screen.findByText('No feeds yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create the first feed' }));
    expect(screen.getByRole('dialog', { name: 'New feed' })).toBeInTheDocument();
  });

  it('hides creating from those who may not create', async () => {
    renderScreen([], { create: false, update: false, delete: false });
    expect(await screen.findByText('No feeds yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /feed/ })).not.toBeInTheDocument();
  });

  it('opens a row in the form, with View for those who may not edit and no Delete for those who may not delete', async () => {
    renderScreen([{ id: 1, name: 'Blog' }], { create: false, update: false, delete: false });
    await openRowMenu('Blog');
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'View' }));
    expect(screen.getByRole('dialog', { name: 'Edit Blog' })).toBeInTheDocument();
  });

  it('runs a further row action with its row', async () => {
    const { onRun } = renderScreen([{ id: 1, name: 'Blog' }]);
    await openRowMenu('Blog');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Run now' }));
    expect(onRun).toHaveBeenCalledWith({ id: 1, name: 'Blog' });
  });

  it('deletes only after the confirmation, then lists again without the row', async () => {
    const { server } = renderScreen([
      { id: 1, name: 'Blog' },
      { id: 2, name: 'Sale' },
    ]);
    await openRowMenu('Blog');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const question = await screen.findByRole('dialog', { name: 'Delete Blog?' });
    expect(question).toHaveTextContent('Emails that use this feed lose it. This cannot be undone.');
    expect(server.remove).not.toHaveBeenCalled();

    await userEvent.click(within(question).getByRole('button', { name: 'Delete feed' }));
    await waitFor(() => expect(screen.queryByText('Blog')).not.toBeInTheDocument());
    expect(server.remove).toHaveBeenCalledWith({ id: 1, name: 'Blog' });
    expect(screen.getByText('Sale')).toBeInTheDocument();
    expect(shown).toHaveBeenCalledWith({ message: 'Blog deleted' });
  });

  it('keeps the row when the confirmation is cancelled', async () => {
    const { server } = renderScreen([{ id: 1, name: 'Blog' }]);
    await openRowMenu('Blog');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const question = await screen.findByRole('dialog', { name: 'Delete Blog?' });
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Delete Blog?' })).not.toBeInTheDocument(),
    );
    expect(server.remove).not.toHaveBeenCalled();
    expect(screen.getByText('Blog')).toBeInTheDocument();
  });

  it('says why a delete failed and keeps the row', async () => {
    const { server } = renderScreen([{ id: 1, name: 'Blog' }]);
    server.remove.mockRejectedValueOnce(new Error('The feed is in use'));
    await openRowMenu('Blog');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Blog?' })).getByRole('button', {
        name: 'Delete feed',
      }),
    );
    await waitFor(() =>
      expect(shown).toHaveBeenCalledWith({
        color: 'red',
        title: 'The feed was not deleted',
        message: 'The feed is in use',
      }),
    );
    expect(screen.getByText('Blog')).toBeInTheDocument();
  });
});
