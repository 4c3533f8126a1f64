import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { errorMessage } from '../../shared/api-error.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { arrayMove, DragHandle, SortableList, useSortableItem } from '../../shared/SortableList.tsx';
import {
  type Component,
  componentKeys,
  componentListQuery,
  reorderComponents,
} from './component-builder-api.ts';
import { NewComponentModal } from './NewComponentModal.tsx';

/** A design system's components: the container first, then the palette order, which users drag to change. */
export function ComponentList({
  workspaceId,
  designSystemId,
  editable,
}: {
  workspaceId: number;
  designSystemId: number;
  editable: boolean;
}) {
  const query = useQuery(componentListQuery(workspaceId, designSystemId));
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {editable
            ? 'Drag components (or focus the handle and use Space and the arrow keys) to set the order the editor offers them in.'
            : 'The order the editor offers components in.'}
        </Text>
        {editable && <Button onClick={() => setCreating(true)}>New component</Button>}
      </Group>
      <QueryState
        query={query}
        isEmpty={(data) => data.results.length === 0}
        empty={
          <>
            <Text fw={500}>No components yet</Text>
            <Text size="sm" c="dimmed">
              Start with the container (the wrapper every email shares), then add the blocks emails are built
              from.
            </Text>
          </>
        }
      >
        {(data) => (
          <SortableComponents
            components={data.results}
            workspaceId={workspaceId}
            designSystemId={designSystemId}
            editable={editable}
          />
        )}
      </QueryState>
      {creating && (
        <NewComponentModal
          workspaceId={workspaceId}
          designSystemId={designSystemId}
          canBeContainer={!query.data?.results.some((component) => component.container)}
          onClose={() => setCreating(false)}
          onCreated={(component) =>
            navigate({
              to: '/workspaces/$workspaceId/design-systems/$designSystemId/components/$componentId',
              params: {
                workspaceId: String(workspaceId),
                designSystemId: String(designSystemId),
                componentId: String(component.id),
              },
            })
          }
        />
      )}
    </Stack>
  );
}

function SortableComponents({
  components,
  workspaceId,
  designSystemId,
  editable,
}: {
  components: Component[];
  workspaceId: number;
  designSystemId: number;
  editable: boolean;
}) {
  const queryClient = useQueryClient();
  const container = components.find((component) => component.container);
  const ordered = components.filter((component) => !component.container);

  const move = async (from: number, to: number) => {
    const moved = arrayMove(ordered, from, to);
    const key = componentKeys.all(workspaceId, designSystemId);
    // Show the new order at once; the server's answer (or a refetch on failure) settles it.
    queryClient.setQueryData(key, { results: container ? [container, ...moved] : moved });
    try {
      const saved = await reorderComponents(
        workspaceId,
        designSystemId,
        moved.map((component) => component.id),
      );
      queryClient.setQueryData(key, saved);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The order was not saved', message: errorMessage(error) });
      await queryClient.invalidateQueries({ queryKey: key });
    }
  };

  return (
    <Stack gap="xs">
      {container && (
        <ComponentRow component={container} workspaceId={workspaceId} designSystemId={designSystemId} />
      )}
      <SortableList ids={ordered.map((component) => component.id)} onMove={move}>
        {ordered.map((component) => (
          <SortableRow
            key={component.id}
            component={component}
            workspaceId={workspaceId}
            designSystemId={designSystemId}
            draggable={editable}
          />
        ))}
      </SortableList>
    </Stack>
  );
}

function SortableRow({
  component,
  workspaceId,
  designSystemId,
  draggable,
}: {
  component: Component;
  workspaceId: number;
  designSystemId: number;
  draggable: boolean;
}) {
  const { itemRef, itemStyle, handle } = useSortableItem(component.id, { disabled: !draggable });
  return (
    <div ref={itemRef} style={itemStyle}>
      <ComponentRow
        component={component}
        workspaceId={workspaceId}
        designSystemId={designSystemId}
        handle={draggable && <DragHandle label={`Move ${component.label}`} handle={handle} size={18} />}
      />
    </div>
  );
}

function ComponentRow({
  component,
  workspaceId,
  designSystemId,
  handle,
}: {
  component: Component;
  workspaceId: number;
  designSystemId: number;
  handle?: React.ReactNode;
}) {
  return (
    <Paper withBorder p="sm" radius="sm">
      <Group gap="sm" wrap="nowrap">
        {handle}
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Anchor
              component={Link}
              to={`/workspaces/${workspaceId}/design-systems/${designSystemId}/components/${component.id}`}
              fw={500}
            >
              {component.label}
            </Anchor>
            {component.container && (
              <Badge size="sm" variant="light">
                Container
              </Badge>
            )}
            {component.deprecated && (
              <Badge size="sm" variant="light" color="gray">
                Deprecated
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" ff="monospace">
            {component.name} · {component.field_definitions.length}{' '}
            {component.field_definitions.length === 1 ? 'field' : 'fields'}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
