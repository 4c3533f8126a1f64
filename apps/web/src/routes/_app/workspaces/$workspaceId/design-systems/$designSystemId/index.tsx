import { createFileRoute } from '@tanstack/react-router';
import { DesignSystemPage } from '../../../../../../features/design-systems/DesignSystemPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/design-systems/$designSystemId/')({
  component: DesignSystemPage,
});
