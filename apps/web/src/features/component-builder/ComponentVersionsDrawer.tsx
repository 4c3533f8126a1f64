import { Badge, Button, Code, Drawer, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { type ComponentVersion, componentVersionsQuery } from './component-builder-api.ts';

/** The component's saved versions, newest first; one can be read and loaded back into the builder. */
export function ComponentVersionsDrawer({
  workspaceId,
  designSystemId,
  componentId,
  opened,
  onClose,
  onLoad,
}: {
  workspaceId: number;
  designSystemId: number;
  componentId: number;
  opened: boolean;
  onClose: () => void;
  onLoad?: (version: ComponentVersion) => void;
}) {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ComponentVersion | null>(null);
  const query = useQuery({
    ...componentVersionsQuery(workspaceId, designSystemId, componentId, page),
    enabled: opened,
  });

  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" title="Version history">
      {selected ? (
        <Stack>
          <Group justify="space-between">
            <Button variant="subtle" onClick={() => setSelected(null)}>
              ← All versions
            </Button>
            {onLoad && (
              <Button
                variant="light"
                onClick={() => {
                  onLoad(selected);
                  onClose();
                }}
              >
                Load into the builder
              </Button>
            )}
          </Group>
          <Text size="sm">
            {selected.component_data.label} · saved {new Date(selected.created_at).toLocaleString()}
            {selected.last_updated_by ? ` by ${nameOf(selected.last_updated_by)}` : ''}
          </Text>
          <Text size="sm" c="dimmed">
            {selected.component_data.field_definitions.length} fields:{' '}
            {selected.component_data.field_definitions.map((field) => field.liquid_variable).join(', ') ||
              'none'}
          </Text>
          <Code block aria-label="Template of this version">
            {selected.component_data.template || '(empty template)'}
          </Code>
        </Stack>
      ) : (
        <QueryState
          query={query}
          isEmpty={(data) => data.results.length === 0}
          empty={<Text c="dimmed">No saved versions yet: each save records one.</Text>}
        >
          {(data) => (
            <Stack gap="xs">
              {data.results.map((version, index) => (
                <UnstyledButton
                  key={version.version_id}
                  onClick={() => setSelected(version)}
                  p="sm"
                  style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
                >
                  <Group justify="space-between">
                    <Text size="sm" fw={500}>
                      {new Date(version.created_at).toLocaleString()}
                    </Text>
                    {page === 1 && index === 0 && <Badge size="sm">Latest</Badge>}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {version.last_updated_by ? nameOf(version.last_updated_by) : 'Unknown author'} ·{' '}
                    {version.component_data.field_definitions.length} fields
                  </Text>
                </UnstyledButton>
              ))}
              <ListPagination pagination={data.pagination} onPage={setPage} />
            </Stack>
          )}
        </QueryState>
      )}
    </Drawer>
  );
}

function nameOf(user: NonNullable<ComponentVersion['last_updated_by']>): string {
  return 'first_name' in user ? `${user.first_name} ${user.last_name}`.trim() : 'someone';
}
