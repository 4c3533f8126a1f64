import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { deleteImage, type Image, imagesKey } from './images-api.ts';

/**
 * Deleting asks first. The API keeps an image that emails show (422 naming them); then the user
 * reads which emails and may delete it anyway.
 */
export function useDeleteImage(workspaceId: number) {
  const queryClient = useQueryClient();
  return async (image: Image) => {
    const confirmed = await confirmDestructive({
      title: 'Delete image',
      message: `Delete “${image.name}”? Its file is removed and cannot be restored.`,
      confirmLabel: 'Delete',
    });
    if (!confirmed) return;
    try {
      try {
        await deleteImage(workspaceId, image.id, false);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        const force = await confirmDestructive({
          title: 'This image is used in emails',
          message: `${usageSentence(error)} Those emails would show a broken image.`,
          confirmLabel: 'Delete anyway',
        });
        if (!force) return;
        await deleteImage(workspaceId, image.id, true);
      }
      notifications.show({ color: 'teal', message: `“${image.name}” was deleted.` });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not delete the image', message: errorMessage(error) });
    } finally {
      await queryClient.invalidateQueries({ queryKey: imagesKey(workspaceId) });
    }
  };
}

/** The API's 422 says which emails show the image; its advice about `force=true` is for API callers. */
function usageSentence(error: ApiError): string {
  const messages = Object.values(error.fieldErrors).flat();
  if (messages.length === 0) return error.message;
  return `This image ${messages.join(' ').replace(/;\s*delete with force=true.*$/, '')}.`;
}
