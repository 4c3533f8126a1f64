import { createFileRoute, redirect } from '@tanstack/react-router';
import { navigation, visibleNavigation } from '../../../app/navigation.ts';
import { loadMe } from '../../../app/session.ts';

/** /settings opens the first settings screen the user's role can use. */
export const Route = createFileRoute('/_app/settings/')({
  beforeLoad: async ({ context }) => {
    const me = await loadMe(context.queryClient);
    const settings = navigation.find((section) => section.label === 'Settings');
    // Workspace settings (connectors) open in the user's first workspace; without one they are skipped.
    const workspaceId = me?.workspaces[0]?.id;
    const first = (
      settings ? (visibleNavigation(me?.permissions ?? [], [settings])[0]?.items ?? []) : []
    ).find((item) => !item.to.includes('$workspaceId') || workspaceId !== undefined);
    throw redirect({ to: first?.to.replace('$workspaceId', String(workspaceId)) ?? '/' });
  },
});
