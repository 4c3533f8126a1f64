import { Alert, Badge, Button, Center, Group, Loader, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useCan } from '../../app/session.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { BrandProfilesPanel } from '../brand-profiles/BrandProfilesPanel.tsx';
import { ComponentList } from '../component-builder/ComponentList.tsx';
import { LayoutsPanel } from '../layouts/LayoutsPanel.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { DesignSystemFormModal } from './DesignSystemFormModal.tsx';
import {
  type DesignSystem,
  designSystemQuery,
  downloadDesignSystemJson,
  failureText,
  useRefreshDesignSystems,
} from './design-systems-api.ts';
import { ImportDesignSystemModal } from './ImportDesignSystemModal.tsx';
import { TokensAndStylesPanel } from './TokensAndStylesPanel.tsx';
import type { DesignSystemTab } from './tabs.ts';

/** How often the page asks whether the AI is done designing. */
const generatingRefreshMs = 2_000;

/** One design system: its components, and what else belongs to it. */
export function DesignSystemPage() {
  const workspaceId = useWorkspaceId();
  const { designSystemId } = useParams({
    from: '/_app/workspaces/$workspaceId/design-systems/$designSystemId/',
  });
  const query = useQuery({
    ...designSystemQuery(workspaceId, Number(designSystemId)),
    // While AI designs the components, ask again until it is done.
    refetchInterval: (current) =>
      current.state.data?.ai_generation_status === 'generating' ? generatingRefreshMs : false,
  });
  return (
    <QueryState query={query}>
      {(system) => <DesignSystemView system={system} workspaceId={workspaceId} />}
    </QueryState>
  );
}

function DesignSystemView({ system, workspaceId }: { system: DesignSystem; workspaceId: number }) {
  const can = useCan();
  const [editing, editModal] = useDisclosure(false);
  const [replacing, replaceModal] = useDisclosure(false);
  const { tab = 'components' } = useSearch({
    from: '/_app/workspaces/$workspaceId/design-systems/$designSystemId/',
  });
  const navigate = useNavigate({ from: '/workspaces/$workspaceId/design-systems/$designSystemId/' });
  const editable = !system.shared && can('update_email_design_systems');
  const generating = system.ai_generation_status === 'generating';
  const [problemsDismissed, setProblemsDismissed] = useState(false);
  const refreshDesignSystems = useRefreshDesignSystems(workspaceId);
  const wasGenerating = useRef(generating);
  useEffect(() => {
    // The AI just finished: its components (and tokens) are new; lists show the system as done.
    if (wasGenerating.current && !generating) {
      void refreshDesignSystems();
    }
    wasGenerating.current = generating;
  }, [generating, refreshDesignSystems]);
  const exportJson = async () => {
    try {
      await downloadDesignSystemJson(workspaceId, system);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The export failed', message: failureText(error) });
    }
  };
  return (
    <Stack gap={0}>
      <PageHeader
        title={
          <Group gap="sm" component="span">
            {system.name}
            {system.shared && (
              <Badge variant="light" color="grape">
                Shared
              </Badge>
            )}
            {system.archived && (
              <Badge variant="light" color="gray">
                Archived
              </Badge>
            )}
          </Group>
        }
        breadcrumbs={[
          { label: 'Design systems', to: `/workspaces/${workspaceId}/design-systems` },
          { label: system.name },
        ]}
        actions={
          <>
            {!generating && (
              <Button variant="default" onClick={exportJson}>
                Export JSON
              </Button>
            )}
            {editable && !generating && (
              <Button variant="default" onClick={replaceModal.open}>
                Replace from JSON
              </Button>
            )}
            {editable && <Button onClick={editModal.open}>Edit details</Button>}
          </>
        }
      />
      {system.description && (
        <Text c="dimmed" mb="md">
          {system.description}
        </Text>
      )}
      {generating && <GeneratingDesignSystem system={system} />}
      {!generating && system.ai_generation_error && !problemsDismissed && (
        <Alert
          color={system.ai_generation_status === 'failed' ? 'red' : 'yellow'}
          title={
            system.ai_generation_status === 'failed'
              ? 'The AI could not design all of this system'
              : 'AI finished with problems'
          }
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setProblemsDismissed(true)}
          mb="md"
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {system.ai_generation_error}
          </Text>
        </Alert>
      )}
      {system.shared && (
        <Text size="sm" c="dimmed" mb="md">
          This design system is shared from another workspace: you can use, copy and export it here, and
          change it only from its own workspace.
        </Text>
      )}
      {!generating && (
        <Tabs
          value={tab}
          onChange={(next) => next && navigate({ search: { tab: next as DesignSystemTab }, replace: true })}
          keepMounted={false}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="components">Components</Tabs.Tab>
            <Tabs.Tab value="tokens">Tokens and styles</Tabs.Tab>
            <Tabs.Tab value="brands">Brand profiles</Tabs.Tab>
            <Tabs.Tab value="layouts">Layouts</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="components">
            <ComponentList workspaceId={workspaceId} designSystemId={system.id} editable={editable} />
          </Tabs.Panel>
          <Tabs.Panel value="tokens">
            <TokensAndStylesPanel workspaceId={workspaceId} system={system} editable={editable} />
          </Tabs.Panel>
          <Tabs.Panel value="brands">
            <BrandProfilesPanel workspaceId={workspaceId} system={system} editable={!system.shared} />
          </Tabs.Panel>
          <Tabs.Panel value="layouts">
            <LayoutsPanel workspaceId={workspaceId} system={system} />
          </Tabs.Panel>
        </Tabs>
      )}
      {editing && (
        <DesignSystemFormModal workspaceId={workspaceId} system={system} opened onClose={editModal.close} />
      )}
      {replacing && (
        <ImportDesignSystemModal
          workspaceId={workspaceId}
          replacing={system}
          opened
          onClose={replaceModal.close}
          onImported={replaceModal.close}
        />
      )}
    </Stack>
  );
}

/** What the page shows while AI designs the system's components: progress and the brief. */
function GeneratingDesignSystem({ system }: { system: DesignSystem }) {
  return (
    <Center mih={320}>
      <Paper withBorder p="xl" maw={560} w="100%" aria-busy="true" aria-live="polite">
        <Stack align="center" gap="md">
          <Loader />
          <Title order={3}>Letterset is designing your components…</Title>
          <Text c="dimmed" ta="center" size="sm">
            AI designs a container and the components emails are built from, and Letterset checks each one
            (its Liquid, its fields, a render with the default values). They appear here when it is done; you
            can leave this page meanwhile.
          </Text>
          {system.prompt && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} w="100%">
              <Text span fw={600}>
                Brief:{' '}
              </Text>
              {system.prompt}
            </Text>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
