import { createFileRoute } from '@tanstack/react-router';
import { DynamicContentPage } from '../../../../features/dynamic-content/DynamicContentPage.tsx';
import { type DynamicContentTab, dynamicContentTabs } from '../../../../features/dynamic-content/tabs.ts';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/dynamic-content')({
  validateSearch: (search: Record<string, unknown>): { tab: DynamicContentTab } => ({
    tab: dynamicContentTabs.includes(search.tab as DynamicContentTab)
      ? (search.tab as DynamicContentTab)
      : 'profiles',
  }),
  component: DynamicContentPage,
});
