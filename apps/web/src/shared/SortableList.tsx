import {
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { verticalListCollisions } from './vertical-list-collisions.ts';

export { arrayMove };

/**
 * A vertical list people reorder by dragging an item's handle, or from the keyboard (space on the
 * handle, the arrows, space again). The caller keeps the list: `onMove` says which position moved where.
 */
export function SortableList<Id extends string | number>({
  ids,
  onMove,
  children,
}: {
  /** The items' ids in their order; each item calls `useSortableItem` with its own. */
  ids: readonly Id[];
  onMove: (from: number, to: number) => void;
  children: ReactNode;
}) {
  const sensors = useSensors(
    // A few pixels before a drag starts, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onMove(ids.indexOf(active.id as Id), ids.indexOf(over.id as Id));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={verticalListCollisions} onDragEnd={onDragEnd}>
      <SortableContext items={[...ids]} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

/** An item of a `SortableList`: what its element and its `DragHandle` take. */
export function useSortableItem(id: string | number, { disabled = false }: { disabled?: boolean } = {}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id, disabled });
  return {
    itemRef: setNodeRef,
    itemStyle: {
      transform: CSS.Transform.toString(transform),
      transition,
      opacity: isDragging ? 0.6 : undefined,
    },
    handle: { ref: setActivatorNodeRef, ...attributes, ...listeners },
  };
}

/** The grip an item is dragged by; `label` names the item for screen readers ("Move field Headline"). */
export function DragHandle({
  label,
  handle,
  size = 16,
}: {
  label: string;
  handle: ReturnType<typeof useSortableItem>['handle'];
  size?: number;
}) {
  return (
    <ActionIcon variant="subtle" color="gray" aria-label={label} style={{ cursor: 'grab' }} {...handle}>
      <IconGripVertical size={size} />
    </ActionIcon>
  );
}
