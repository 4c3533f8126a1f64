import { createFileRoute } from '@tanstack/react-router';
import { DesignSystemsPage } from '../../../../../features/design-systems/DesignSystemsPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/design-systems/')({
  component: DesignSystemsPage,
});
