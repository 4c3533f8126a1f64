import {
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  type Over,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { Group, Paper, Text } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { createPortal } from 'react-dom';
import {
  dispatchCommand,
  type EditorSession,
  EditorSessionProvider,
  useEditorSession,
} from '../EditorContext.tsx';
import { type DragItem, type DropPlace, dropCommand, type GapDropData } from './drop-command.ts';

/** The drop layer over the preview frame. */
export const canvasDropId = 'canvas-drop';
/** The dashed box at the end of the outline. */
export const outlineEndId = 'outline-end';
/** Dropping a component on an empty email's preview adds it as the email's first component. */
export const emptyEmailDropId = 'empty-email';

/**
 * Over the preview, the pointer decides (the drop layer maps it to a gap itself); elsewhere the dragged
 * item's box meets the outline's rows, as the sortable outline expects. The keyboard has no pointer,
 * so keyboard drags stay in the outline.
 */
const detectCollisions: CollisionDetection = (args) => {
  const overCanvas = pointerWithin({
    ...args,
    droppableContainers: args.droppableContainers.filter((container) => container.id === canvasDropId),
  });
  if (overCanvas.length > 0) return overCanvas;
  return rectIntersection({
    ...args,
    droppableContainers: args.droppableContainers.filter((container) => container.id !== canvasDropId),
  });
};

/** Where a drop target puts the item: the layer's gap, the outline's end, or the place of the row under it. */
function placeOf(over: Over, instanceIds: readonly string[]): DropPlace | null {
  if (over.id === canvasDropId) {
    const index = (over.data.current as GapDropData | undefined)?.gapIndex() ?? null;
    return index === null ? null : { kind: 'gap', index };
  }
  if (over.id === outlineEndId || over.id === emptyEmailDropId)
    return { kind: 'row', index: instanceIds.length };
  const index = instanceIds.indexOf(String(over.id));
  return index === -1 ? null : { kind: 'row', index };
}

/**
 * One drag-and-drop context for the whole editor: the palette, the outline, the empty email's drop
 * box and the preview's drop layer and handles all take part in it, so a component dragged from the
 * palette can land in the outline or the preview, and an instance dragged from either moves in both.
 * A drop dispatches the same insert and move commands as the buttons (one undo history, autosave).
 * The dragged item is drawn in a `DragOverlay` on the page's body: nothing in the palette column moves,
 * so the column neither scrolls sideways nor clips it.
 */
export function EditorDragAndDrop({ children }: { children: ReactNode }) {
  const { editor, select } = useEditorSession();
  const [dragged, setDragged] = useState<DragItem | null>(null);
  const sensors = useSensors(
    // A few pixels before a drag starts, so a click on a handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  function onDragStart({ active }: DragStartEvent) {
    setDragged((active.data.current as DragItem | undefined) ?? null);
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    setDragged(null);
    const item = active.data.current as DragItem | undefined;
    if (!item || !over) return;
    const instanceIds = editor.getState().document.content.component_instances.map((instance) => instance.id);
    const place = placeOf(over, instanceIds);
    if (!place) return;
    const command = dropCommand(item, place, instanceIds);
    if (!command || !dispatchCommand(editor, command)) return;
    if (command.type === 'insertComponent') select(command.instanceId);
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={detectCollisions}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragged(null)}
    >
      {children}
      {createPortal(
        // No drop animation: the item lands where it was dropped, not back at its handle.
        // The pointer goes through the drag image to what is under it (the preview's drop layer takes the wheel).
        <DragOverlay dropAnimation={null} zIndex={400} style={{ pointerEvents: 'none' }}>
          {dragged && <DraggedItem label={dragged.label} />}
        </DragOverlay>,
        document.body,
      )}
    </DndContext>
  );
}

/** The editor's session for everything inside, and its drag-and-drop context (which dispatches in that session). */
export function EditorSessionWithDragAndDrop({
  session,
  children,
}: {
  session: EditorSession;
  children: ReactNode;
}) {
  return (
    <EditorSessionProvider value={session}>
      <EditorDragAndDrop>{children}</EditorDragAndDrop>
    </EditorSessionProvider>
  );
}

/** The drag image: the item's name on a card under the pointer. */
function DraggedItem({ label }: { label: string }) {
  return (
    <Paper
      data-testid="drag-image"
      withBorder
      shadow="md"
      px="xs"
      py={4}
      // As wide as the name, even when the handle it was dragged by is a small grip.
      style={{ width: 'max-content', maxWidth: 280, cursor: 'grabbing' }}
    >
      <Group gap={4} wrap="nowrap">
        <IconGripVertical size={14} aria-hidden />
        <Text size="sm" truncate>
          {label}
        </Text>
      </Group>
    </Paper>
  );
}
