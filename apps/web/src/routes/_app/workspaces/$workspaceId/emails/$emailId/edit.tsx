import { createFileRoute } from '@tanstack/react-router';
import { EditorPage } from '../../../../../../features/editor/EditorPage.tsx';
import { prefetchEditor } from '../../../../../../features/editor/editor-prefetch.ts';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/emails/$emailId/edit')({
  loader: ({ context, params }) =>
    prefetchEditor(context.queryClient, Number(params.workspaceId), { emailId: Number(params.emailId) }),
  component: EditorPage,
});
