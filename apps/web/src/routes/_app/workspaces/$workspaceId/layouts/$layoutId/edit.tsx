import { createFileRoute } from '@tanstack/react-router';
import { LayoutEditorPage } from '../../../../../../features/editor/EditorPage.tsx';
import { prefetchEditor } from '../../../../../../features/editor/editor-prefetch.ts';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/layouts/$layoutId/edit')({
  loader: ({ context, params }) =>
    prefetchEditor(context.queryClient, Number(params.workspaceId), { layoutId: Number(params.layoutId) }),
  component: LayoutEditorPage,
});
