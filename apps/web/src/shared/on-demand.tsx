import { Center, Loader, Modal, Skeleton, Stack } from '@mantine/core';
import { type ComponentType, type ReactNode, Suspense, use } from 'react';

export type OnDemandComponent<Props extends object> = ComponentType<Props> & {
  /** Starts loading the code now (on intent, or once the screen is idle), so showing it waits less. */
  preload(): Promise<unknown>;
};

/**
 * A component whose code is downloaded when it is first shown, with `placeholder` (a skeleton the
 * size of what comes, or a loader) until it arrives. For the heavy pieces a screen does not show
 * at first (code editors, rich text, panels behind tabs, dialogs): the route's first download
 * carries only what its first screen needs. Each one waits in its own boundary, so the rest of the
 * screen stays as it is meanwhile; once downloaded (shown before, or preloaded) it shows at once.
 */
export function onDemand<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  placeholder: ReactNode | ((props: Props) => ReactNode),
): OnDemandComponent<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const loadOnce = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // A failed download (the network dropped) is tried again the next time, not remembered.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  function Shown(props: Props) {
    // `use` suspends until the download is done; the same promise every time, so it is not a new wait.
    const Component = loaded ?? use(loadOnce());
    return <Component {...props} />;
  }
  function OnDemand(props: Props) {
    const fallback = typeof placeholder === 'function' ? placeholder(props) : placeholder;
    return (
      <Suspense fallback={fallback}>
        <Shown {...props} />
      </Suspense>
    );
  }
  return Object.assign(OnDemand, { preload: loadOnce });
}

/** What a panel shows while its code downloads: a few grey lines where its content comes. */
export function LoadingPanel() {
  return (
    <Stack gap="xs" aria-busy="true" aria-label="Loading">
      <Skeleton h={28} />
      <Skeleton h={28} />
      <Skeleton h={28} w="60%" />
    </Stack>
  );
}

/** What an opened dialog shows while its code downloads; closing it stops waiting. */
export function LoadingDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} withCloseButton={false} centered size="xs" title={null}>
      <Center py="md">
        <Loader aria-label="Loading" />
      </Center>
    </Modal>
  );
}
