import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { visibleNavigation } from '../../app/navigation.ts';
import { useMe } from '../../app/session.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { useWorkspaceId } from './workspace.ts';

/** A workspace's start page: where to go from here. */
export function WorkspaceHome() {
  const me = useMe();
  const workspaceId = useWorkspaceId();
  const workspace = me.workspaces.find((candidate) => candidate.id === workspaceId);
  const workspaceItems = visibleNavigation(me.permissions).flatMap((section) =>
    section.items.filter((item) => item.to.includes('$workspaceId')),
  );
  return (
    <Stack>
      <PageHeader title={workspace?.name ?? 'Workspace'} />
      {workspaceItems.length === 0 ? (
        <Text c="dimmed">Nothing in this workspace is open to your role yet.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {workspaceItems.map((item) => (
            <Anchor key={item.to} component={Link} to={item.to.replace('$workspaceId', String(workspaceId))}>
              {item.label}
            </Anchor>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
