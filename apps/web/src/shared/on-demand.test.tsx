import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { onDemand } from './on-demand.tsx';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** A download the test finishes (or fails) when it wants. */
function controlledDownload() {
  const downloads: { resolve: (value: typeof Greeting) => void; reject: (error: Error) => void }[] = [];
  const load = vi.fn(
    () =>
      new Promise<typeof Greeting>((resolve, reject) => {
        downloads.push({ resolve, reject });
      }),
  );
  return { load, downloads };
}

describe('onDemand', () => {
  it('shows the placeholder, with the props, until the code arrives, then the component', async () => {
    const { load, downloads } = controlledDownload();
    const OnDemandGreeting = onDemand(load, ({ name }) => <p>Loading {name}…</p>);
    await act(async () => {
      render(
        <>
          <OnDemandGreeting name="Ada" />
          <p>The rest of the screen</p>
        </>,
      );
    });
    expect(screen.getByText('Loading Ada…')).toBeInTheDocument();
    expect(screen.getByText('The rest of the screen')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => downloads[0]?.resolve(Greeting));
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
    expect(screen.queryByText('Loading Ada…')).not.toBeInTheDocument();
  });

  it('downloads nothing until shown or preloaded, and once however often it is asked', async () => {
    const { load, downloads } = controlledDownload();
    const OnDemandGreeting = onDemand(load, null);
    expect(load).not.toHaveBeenCalled();
    const first = OnDemandGreeting.preload();
    const second = OnDemandGreeting.preload();
    expect(load).toHaveBeenCalledTimes(1);
    downloads[0]?.resolve(Greeting);
    await Promise.all([first, second]);
    // Downloaded already: shown in the same render, without the placeholder.
    render(<OnDemandGreeting name="Grace" />);
    expect(screen.getByText('Hello Grace')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('downloads again after a failed preload', async () => {
    const { load, downloads } = controlledDownload();
    const OnDemandGreeting = onDemand(load, <p>Loading…</p>);
    const failed = OnDemandGreeting.preload();
    downloads[0]?.reject(new Error('offline'));
    await expect(failed).rejects.toThrow('offline');
    await act(async () => {
      render(<OnDemandGreeting name="Alan" />);
    });
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    await act(async () => downloads[1]?.resolve(Greeting));
    expect(await screen.findByText('Hello Alan')).toBeInTheDocument();
  });
});
