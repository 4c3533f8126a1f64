import { useDraggable, useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  type BrandedComponent,
  duplicateComponent,
  type EmailContent,
  insertComponent,
  moveComponent,
  removeComponent,
} from '@letterset/core';
import {
  ActionIcon,
  Button,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconCopy,
  IconGripVertical,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { type KeyboardEvent, memo, useMemo } from 'react';
import { createPortal } from 'react-dom';
import type { DragItem } from './canvas-drop/drop-command.ts';
import { emptyEmailDropId, outlineEndId } from './canvas-drop/EditorDragAndDrop.tsx';
import { PresenceMarkers } from './collaboration/PresenceAvatars.tsx';
import { dispatchCommand, instanceLabel, useEditorSession } from './EditorContext.tsx';

/** What the outline shows of an instance; value edits leave it unchanged, so the outline does not re-render while typing. */
export interface OutlineRow {
  id: string;
  name?: string;
  component_id: number;
  conditional_id?: number | null;
}

export interface OutlineState {
  container: OutlineRow;
  instances: OutlineRow[];
}

/** The outline of a document, and a key that changes only when the outline does. */
export function outlineOf(content: EmailContent): { key: string; outline: OutlineState } {
  const row = ({ id, name, component_id, conditional_id }: OutlineRow): OutlineRow => ({
    id,
    name,
    component_id,
    conditional_id,
  });
  const outline = {
    container: row(content.container_component_instance),
    instances: content.component_instances.map(row),
  };
  return { key: JSON.stringify(outline), outline };
}

const paletteIdPrefix = 'palette:';

/** Components the palette offers: body components the brand does not hide and nobody deprecated. */
export function offeredComponents(componentsById: ReadonlyMap<number, BrandedComponent>): BrandedComponent[] {
  return [...componentsById.values()].filter(
    (component) => !component.container && !component.hidden && component.deprecated !== true,
  );
}

/** Adds a component at a position of the body and selects the new instance. */
export function useInsertComponent(): (componentId: number, index: number) => void {
  const { editor, select } = useEditorSession();
  return (componentId, index) => {
    const command = insertComponent({ componentId, index });
    if (dispatchCommand(editor, command)) select(command.instanceId);
  };
}

/**
 * The palette and the outline of the email, with the drop target an empty email shows over the preview
 * (rendered into `emptyEmailSlot` through a portal). They take part in the editor's drag-and-drop
 * context (`EditorDragAndDrop`), which inserts a component dragged from the palette where it is dropped
 * and moves an instance dragged in the outline there. Buttons and Alt+Arrow keys do the same without a
 * pointer.
 */
export const Structure = memo(function Structure({
  outline,
  emptyEmailSlot,
}: {
  outline: OutlineState;
  /** Where an empty email's drop target goes: a box over the preview. */
  emptyEmailSlot: HTMLElement | null;
}) {
  const { editor, readOnly, selectedId } = useEditorSession();
  const insertAt = useInsertComponent();
  const instances = outline.instances;
  const canChangeStructure = !readOnly && editor.can('insertComponent');

  function addAfterSelection(componentId: number) {
    const selectedIndex = instances.findIndex((instance) => instance.id === selectedId);
    insertAt(componentId, selectedIndex === -1 ? instances.length : selectedIndex + 1);
  }

  return (
    <>
      <Stack gap="md" h="100%">
        {canChangeStructure && <Palette onAdd={addAfterSelection} />}
        <Outline outline={outline} canChangeStructure={canChangeStructure} />
      </Stack>
      {canChangeStructure &&
        instances.length === 0 &&
        emptyEmailSlot &&
        createPortal(<EmptyEmail />, emptyEmailSlot)}
    </>
  );
});

/** How many of the design system's components an empty email offers one click away. */
const suggestedCount = 4;

/**
 * What an email without components shows over its preview: where to drop the first component, and
 * the design system's first components (in the order its authors gave them) one click away.
 */
function EmptyEmail() {
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
      style={{ borderStyle: 'dashed', borderWidth: 2, pointerEvents: 'auto' }}
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

function Palette({ onAdd }: { onAdd: (componentId: number) => void }) {
  const { componentsById } = useEditorSession();
  const offered = useMemo(() => offeredComponents(componentsById), [componentsById]);
  return (
    <section aria-labelledby="palette-title">
      <Title id="palette-title" order={2} fz="sm" mb={6}>
        Components
      </Title>
      <Stack gap={4}>
        {offered.map((component) => (
          <PaletteItem key={component.id} component={component} onAdd={onAdd} />
        ))}
      </Stack>
    </section>
  );
}

function PaletteItem({
  component,
  onAdd,
}: {
  component: BrandedComponent;
  onAdd: (componentId: number) => void;
}) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: `${paletteIdPrefix}${component.id}`,
    data: { kind: 'component', componentId: component.id, label: component.label } satisfies DragItem,
  });
  // The item stays in place while it is dragged: the editor's drag overlay draws the moving copy.
  return (
    <Paper ref={setNodeRef} withBorder px="xs" py={4} style={{ opacity: isDragging ? 0.6 : 1 }}>
      <Group gap={4} wrap="nowrap" justify="space-between">
        <Group
          gap={4}
          wrap="nowrap"
          {...listeners}
          {...attributes}
          aria-label={`Drag ${component.label}`}
          style={{ cursor: 'grab', flex: 1 }}
        >
          <IconGripVertical size={14} aria-hidden />
          <Text size="sm">{component.label}</Text>
        </Group>
        <Tooltip label="Add after the selected component">
          <ActionIcon
            size="sm"
            variant="subtle"
            aria-label={`Add ${component.label}`}
            onClick={() => onAdd(component.id)}
          >
            <IconPlus size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
}

function Outline({ outline, canChangeStructure }: { outline: OutlineState; canChangeStructure: boolean }) {
  const { editor, componentsById, selectedId, select } = useEditorSession();
  const instances = outline.instances;
  const { setNodeRef, isOver } = useDroppable({ id: outlineEndId });
  const container = outline.container;
  return (
    <section aria-labelledby="outline-title" style={{ flex: 1, minHeight: 0 }}>
      <Title id="outline-title" order={2} fz="sm" mb={6}>
        In this email
      </Title>
      <ScrollArea.Autosize mah="50vh">
        <Stack gap={4} role="list" aria-label="Components in this email">
          <UnstyledButton
            role="listitem"
            onClick={() => select(container.id)}
            aria-current={selectedId === container.id ? 'true' : undefined}
            px="xs"
            py={4}
            bg={selectedId === container.id ? 'blue.0' : undefined}
            style={{ borderRadius: 4 }}
          >
            <Group gap={4} wrap="nowrap" justify="space-between">
              <Text size="sm" c="dimmed">
                {instanceLabel(container, componentsById)} · fields of the whole email
              </Text>
              <PresenceMarkers instanceId={container.id} />
            </Group>
          </UnstyledButton>
          <SortableContext
            items={instances.map((instance) => instance.id)}
            strategy={verticalListSortingStrategy}
          >
            {instances.map((instance, index) => (
              <OutlineItem
                key={instance.id}
                id={instance.id}
                label={instanceLabel(instance, componentsById)}
                conditional={instance.conditional_id != null}
                selected={selectedId === instance.id}
                canChangeStructure={canChangeStructure}
                isFirst={index === 0}
                isLast={index === instances.length - 1}
                onSelect={() => select(instance.id)}
                onMove={(delta) => dispatchCommand(editor, moveComponent(instance.id, index + delta))}
                onDuplicate={() => {
                  const command = duplicateComponent(instance.id);
                  if (dispatchCommand(editor, command)) select(command.newInstanceId);
                }}
                onRemove={() => {
                  if (dispatchCommand(editor, removeComponent(instance.id)) && selectedId === instance.id)
                    select(null);
                }}
              />
            ))}
          </SortableContext>
          <Paper
            ref={setNodeRef}
            withBorder
            p="xs"
            bg={isOver ? 'blue.0' : undefined}
            style={{ borderStyle: 'dashed', display: canChangeStructure ? undefined : 'none' }}
          >
            <Text size="xs" c="dimmed" ta="center">
              {instances.length === 0
                ? 'Drag a component here, or use its + button'
                : 'Drop here to add at the end'}
            </Text>
          </Paper>
        </Stack>
      </ScrollArea.Autosize>
    </section>
  );
}

function OutlineItem({
  id,
  label,
  conditional,
  selected,
  canChangeStructure,
  isFirst,
  isLast,
  onSelect,
  onMove,
  onDuplicate,
  onRemove,
}: {
  id: string;
  label: string;
  conditional: boolean;
  selected: boolean;
  canChangeStructure: boolean;
  isFirst: boolean;
  isLast: boolean;
  onSelect: () => void;
  onMove: (delta: number) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: !canChangeStructure,
    data: { kind: 'instance', instanceId: id, label } satisfies DragItem,
  });
  function onKeyDown(event: KeyboardEvent) {
    if (!canChangeStructure || !event.altKey) return;
    if (event.key === 'ArrowUp' && !isFirst) {
      event.preventDefault();
      onMove(-1);
    } else if (event.key === 'ArrowDown' && !isLast) {
      event.preventDefault();
      onMove(1);
    }
  }
  return (
    <Paper
      ref={setNodeRef}
      role="listitem"
      withBorder
      px={4}
      py={2}
      bg={selected ? 'blue.0' : undefined}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
    >
      <Group gap={2} wrap="nowrap">
        {canChangeStructure && (
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            aria-label={`Drag ${label}`}
            {...listeners}
            {...attributes}
          >
            <IconGripVertical size={14} />
          </ActionIcon>
        )}
        <UnstyledButton
          onClick={onSelect}
          onKeyDown={onKeyDown}
          aria-current={selected ? 'true' : undefined}
          aria-label={`Select ${label}`}
          style={{ flex: 1, minWidth: 0 }}
        >
          <Text size="sm" truncate>
            {label}
            {conditional && (
              <Text span size="xs" c="grape" ml={4}>
                conditional
              </Text>
            )}
          </Text>
        </UnstyledButton>
        <PresenceMarkers instanceId={id} />
        {canChangeStructure && (
          <>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="gray"
              aria-label={`Move ${label} up`}
              disabled={isFirst}
              onClick={() => onMove(-1)}
            >
              <IconArrowUp size={14} />
            </ActionIcon>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="gray"
              aria-label={`Move ${label} down`}
              disabled={isLast}
              onClick={() => onMove(1)}
            >
              <IconArrowDown size={14} />
            </ActionIcon>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="gray"
              aria-label={`Duplicate ${label}`}
              onClick={onDuplicate}
            >
              <IconCopy size={14} />
            </ActionIcon>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="red"
              aria-label={`Remove ${label}`}
              onClick={onRemove}
            >
              <IconTrash size={14} />
            </ActionIcon>
          </>
        )}
      </Group>
    </Paper>
  );
}
