import { createFileRoute } from '@tanstack/react-router';
import { ConnectorsPage } from '../../../../features/connectors/ConnectorsPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/connectors')({
  component: ConnectorsPage,
});
