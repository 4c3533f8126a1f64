import { useDroppable } from '@dnd-kit/core';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useEditorSession } from './EditorContext.tsx';
import { emptyEmailDropId, offeredComponents, useInsertComponent } from './Structure.tsx';

/** How many of the design system's components an empty email offers one click away. */
const suggestedCount = 4;

/**
 * What an email without components shows over its preview: where to drop the first component, and
 * the design system's first components (in the order its authors gave them) one click away.
 */
export function EmptyEmail() {
  const { componentsById } = useEditorSession();
  const insertAt = useInsertComponent();
  const suggested = useMemo(
    () => offeredComponents(componentsById).slice(0, suggestedCount),
    [componentsById],
  );
  const { setNodeRef, isOver } = useDroppable({ id: emptyEmailDropId });
  return (
    <Paper
      ref={setNodeRef}
      role="region"
      aria-label="Empty email"
      withBorder
      p="lg"
      maw={520}
      bg={isOver ? 'blue.0' : 'white'}
      style={{ borderStyle: 'dashed', borderWidth: 2 }}
    >
      <Stack align="center" gap="xs">
        <Text fw={600}>This email has no components yet</Text>
        <Text size="sm" c="dimmed" ta="center">
          Drag a component here from the Components list, or start with one of these:
        </Text>
        <Group justify="center" gap="xs">
          {suggested.map((component) => (
            <Button
              key={component.id}
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              aria-label={`Start with ${component.label}`}
              onClick={() => insertAt(component.id, 0)}
            >
              {component.label}
            </Button>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}
