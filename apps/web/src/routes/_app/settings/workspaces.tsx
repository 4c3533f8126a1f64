import { createFileRoute } from '@tanstack/react-router';
import { WorkspacesPage } from '../../../features/settings/WorkspacesPage.tsx';

export const Route = createFileRoute('/_app/settings/workspaces')({
  component: WorkspacesPage,
});
