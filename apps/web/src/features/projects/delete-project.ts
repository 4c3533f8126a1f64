import { notifications } from '@mantine/notifications';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { deleteProject, type Project } from './projects-api.ts';

/**
 * Deletes a project after confirmation. The API keeps a project that still has emails (422); then
 * the user is asked a second time, naming what the API said, before the emails go with it.
 * Resolves true when the project was deleted.
 */
export async function confirmAndDeleteProject(workspaceId: number, project: Project): Promise<boolean> {
  const confirmed = await confirmDestructive({
    title: `Delete ${project.name}?`,
    message: 'The project is deleted for everyone. This cannot be undone.',
    confirmLabel: 'Delete project',
  });
  if (!confirmed) return false;
  try {
    await deleteProject(workspaceId, project.id, false);
    return true;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 422)) {
      notifications.show({ color: 'red', message: errorMessage(error) });
      return false;
    }
    const withEmails = await confirmDestructive({
      title: 'Delete its emails too?',
      message: `${error.message} Deleting the project deletes these emails as well.`,
      confirmLabel: 'Delete project and emails',
    });
    if (!withEmails) return false;
    try {
      await deleteProject(workspaceId, project.id, true);
      return true;
    } catch (secondError) {
      notifications.show({ color: 'red', message: errorMessage(secondError) });
      return false;
    }
  }
}
