import { createFileRoute } from '@tanstack/react-router';
import { ImageLibraryPage } from '../../../../features/images/ImageLibraryPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/images')({
  component: ImageLibraryPage,
});
