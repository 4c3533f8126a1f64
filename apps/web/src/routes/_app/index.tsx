import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadMe } from '../../app/session.ts';
import { lastWorkspaceId } from '../../features/shell/workspace.ts';

/** The start page is the workspace the user last worked in, or their first one. */
export const Route = createFileRoute('/_app/')({
  beforeLoad: async ({ context }) => {
    const me = await loadMe(context.queryClient);
    const workspaces = me?.workspaces ?? [];
    const remembered = workspaces.find((workspace) => workspace.id === lastWorkspaceId());
    const workspace = remembered ?? workspaces[0];
    if (workspace)
      throw redirect({ to: '/workspaces/$workspaceId', params: { workspaceId: String(workspace.id) } });
  },
  component: NoWorkspace,
});

function NoWorkspace() {
  return (
    <p>
      You are not a member of any workspace yet. Ask an administrator of your organization to add you to one.
    </p>
  );
}
