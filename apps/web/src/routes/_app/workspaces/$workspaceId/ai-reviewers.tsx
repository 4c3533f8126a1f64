import { createFileRoute } from '@tanstack/react-router';
import { AiReviewersPage } from '../../../../features/ai-reviewers/AiReviewersPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/ai-reviewers')({
  component: AiReviewersPage,
});
