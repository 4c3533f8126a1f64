import { createFileRoute } from '@tanstack/react-router';
import { WorkspaceHome } from '../../../../features/shell/WorkspaceHome.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/')({
  component: WorkspaceHome,
});
