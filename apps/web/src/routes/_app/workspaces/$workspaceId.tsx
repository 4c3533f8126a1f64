import { createFileRoute, notFound, Outlet } from '@tanstack/react-router';
import { loadMe } from '../../../app/session.ts';
import { rememberWorkspace } from '../../../features/shell/workspace.ts';

/** A workspace's screens; the id must be one of the user's workspaces. */
export const Route = createFileRoute('/_app/workspaces/$workspaceId')({
  beforeLoad: async ({ context, params }) => {
    const me = await loadMe(context.queryClient);
    const workspace = me?.workspaces.find((candidate) => String(candidate.id) === params.workspaceId);
    if (!workspace) throw notFound();
    rememberWorkspace(workspace.id);
    return { workspace };
  },
  component: Outlet,
});
