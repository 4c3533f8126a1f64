import { createFileRoute } from '@tanstack/react-router';
import { LayoutEditorPage } from '../../../../../../features/editor/EditorPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/layouts/$layoutId/edit')({
  component: LayoutEditorPage,
});
