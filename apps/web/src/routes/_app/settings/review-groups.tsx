import { createFileRoute } from '@tanstack/react-router';
import { ReviewGroupsPage } from '../../../features/review-groups/ReviewGroupsPage.tsx';

export const Route = createFileRoute('/_app/settings/review-groups')({
  component: ReviewGroupsPage,
});
