import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadMe, loadSetupRequired } from '../app/session.ts';
import { SignInPage } from '../features/sign-in/SignInPage.tsx';

export const Route = createFileRoute('/sign-in')({
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' && search.redirect.startsWith('/')
      ? { redirect: search.redirect }
      : {},
  beforeLoad: async ({ context, search }) => {
    if (await loadSetupRequired(context.queryClient)) throw redirect({ to: '/setup' });
    const me = await loadMe(context.queryClient);
    if (me) throw redirect({ href: search.redirect ?? '/' });
  },
  component: SignInPage,
});
