import { createFileRoute } from '@tanstack/react-router';
import { EditorPage } from '../../../../../../features/editor/EditorPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/emails/$emailId/edit')({
  component: EditorPage,
});
