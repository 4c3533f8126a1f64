import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadMe, loadSetupRequired } from '../app/session.ts';
import { AppLayout } from '../features/shell/AppLayout.tsx';

/** Everything behind sign-in: the guard, then the shell around the page. */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context, location }) => {
    const me = await loadMe(context.queryClient);
    if (me) return;
    if (await loadSetupRequired(context.queryClient)) throw redirect({ to: '/setup' });
    throw redirect({ to: '/sign-in', search: { redirect: location.href } });
  },
  component: AppLayout,
});
