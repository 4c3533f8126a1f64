import { createFileRoute } from '@tanstack/react-router';
import { ExportsPage } from '../../../../features/exports/ExportsPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/exports')({
  component: ExportsPage,
});
