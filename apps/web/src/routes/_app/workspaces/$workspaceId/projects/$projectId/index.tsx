import { createFileRoute } from '@tanstack/react-router';
import { ProjectEmailsPage } from '../../../../../../features/emails/ProjectEmailsPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/projects/$projectId/')({
  component: ProjectEmailsPage,
});
