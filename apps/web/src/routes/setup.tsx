import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadSetupRequired } from '../app/session.ts';
import { SetupPage } from '../features/sign-in/SetupPage.tsx';

export const Route = createFileRoute('/setup')({
  beforeLoad: async ({ context }) => {
    if (!(await loadSetupRequired(context.queryClient))) throw redirect({ to: '/sign-in' });
  },
  component: SetupPage,
});
