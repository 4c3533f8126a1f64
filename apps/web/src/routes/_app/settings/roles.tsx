import { createFileRoute } from '@tanstack/react-router';
import { RolesPage } from '../../../features/settings/RolesPage.tsx';

export const Route = createFileRoute('/_app/settings/roles')({
  component: RolesPage,
});
