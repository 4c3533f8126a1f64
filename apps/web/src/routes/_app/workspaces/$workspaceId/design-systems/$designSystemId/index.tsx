import { createFileRoute } from '@tanstack/react-router';
import { DesignSystemPage } from '../../../../../../features/design-systems/DesignSystemPage.tsx';
import { type DesignSystemTab, designSystemTabs } from '../../../../../../features/design-systems/tabs.ts';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/design-systems/$designSystemId/')({
  // The open tab is in the address, so the layout editor's way back lands on the Layouts tab.
  validateSearch: (search: Record<string, unknown>): { tab?: DesignSystemTab } =>
    designSystemTabs.includes(search.tab as DesignSystemTab) ? { tab: search.tab as DesignSystemTab } : {},
  component: DesignSystemPage,
});
