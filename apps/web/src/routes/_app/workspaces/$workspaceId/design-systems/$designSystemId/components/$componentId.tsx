import { createFileRoute } from '@tanstack/react-router';
import { ComponentBuilderPage } from '../../../../../../../features/component-builder/ComponentBuilderPage.tsx';

export const Route = createFileRoute(
  '/_app/workspaces/$workspaceId/design-systems/$designSystemId/components/$componentId',
)({
  component: ComponentBuilderPage,
});
