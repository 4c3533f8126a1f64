import { createFileRoute } from '@tanstack/react-router';
import { TeamsPage } from '../../../features/settings/TeamsPage.tsx';

export const Route = createFileRoute('/_app/settings/teams')({
  component: TeamsPage,
});
