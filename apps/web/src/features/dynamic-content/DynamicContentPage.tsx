import { Stack, Tabs } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { ConditionalsPanel } from './ConditionalsPanel.tsx';
import { FeedsPanel } from './FeedsPanel.tsx';
import { LinkTrackingPanel } from './LinkTrackingPanel.tsx';
import { PersonalizationTagsPanel } from './PersonalizationTagsPanel.tsx';
import { ProfilesPanel } from './ProfilesPanel.tsx';
import { type DynamicContentTab, dynamicContentTabs } from './tabs.ts';

const labels: Record<DynamicContentTab, string> = {
  profiles: 'Profiles',
  conditionals: 'Conditionals',
  'personalization-tags': 'Personalization tags',
  'link-tracking': 'Link tracking',
  feeds: 'Feeds',
};

/** The workspace's dynamic content, one tab per kind; the tab is in the address so it can be linked. */
export function DynamicContentPage() {
  const workspaceId = useWorkspaceId();
  const { tab } = useSearch({ from: '/_app/workspaces/$workspaceId/dynamic-content' });
  const navigate = useNavigate({ from: '/workspaces/$workspaceId/dynamic-content' });
  return (
    <Stack gap={0}>
      <PageHeader title="Dynamic content" />
      <Tabs
        value={tab}
        onChange={(next) => next && navigate({ search: { tab: next as DynamicContentTab } })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {dynamicContentTabs.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {labels[value]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="profiles">
          <ProfilesPanel workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="conditionals">
          <ConditionalsPanel workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="personalization-tags">
          <PersonalizationTagsPanel workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="link-tracking">
          <LinkTrackingPanel workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="feeds">
          <FeedsPanel workspaceId={workspaceId} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
