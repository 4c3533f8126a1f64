import { Anchor, Button, Center, Stack, Text, Title } from '@mantine/core';
import { createRootRouteWithContext, Link, Outlet, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { SESSION_EXPIRED_EVENT } from '../app/api.ts';
import type { RouterContext } from '../app/router.ts';
import { meQuery } from '../app/session.ts';
import { errorMessage } from '../shared/api-error.ts';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
  errorComponent: ({ error, reset }) => <RouteError error={error} retry={reset} />,
});

function Root() {
  useSignInAgainWhenSessionExpires();
  return <Outlet />;
}

/** A 401 anywhere sends the user to sign in, and back to where they were afterwards. */
function useSignInAgainWhenSessionExpires() {
  const router = useRouter();
  useEffect(() => {
    const onExpired = () => {
      const { pathname, searchStr } = router.state.location;
      router.options.context.queryClient.setQueryData(meQuery.queryKey, null);
      if (pathname === '/sign-in' || pathname === '/setup' || pathname.startsWith('/invitations/')) return;
      router.navigate({ to: '/sign-in', search: { redirect: pathname + searchStr } });
    };
    window.addEventListener(SESSION_EXPIRED_EVENT, onExpired);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, onExpired);
  }, [router]);
}

function NotFound() {
  return (
    <Center mih="60vh">
      <Stack align="center" gap="xs">
        <Title order={2}>Page not found</Title>
        <Text c="dimmed">The address may be mistyped, or the page has moved.</Text>
        <Anchor component={Link} to="/">
          Go to the start page
        </Anchor>
      </Stack>
    </Center>
  );
}

function RouteError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <Center mih="60vh">
      <Stack align="center" gap="xs" role="alert">
        <Title order={2}>Something went wrong</Title>
        <Text c="dimmed">{errorMessage(error)}</Text>
        <Button variant="light" onClick={retry}>
          Try again
        </Button>
      </Stack>
    </Center>
  );
}
