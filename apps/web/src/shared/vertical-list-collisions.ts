import type { ClientRect, Collision, CollisionDetection } from '@dnd-kit/core';

/**
 * Which item of a vertical sortable list a dragged item is over, when the items differ in height (an
 * open accordion item beside closed ones). dnd-kit's `closestCenter` compares the dragged box's centre
 * with the items' centres, so a tall item's centre stays nearest to itself: moved by the keyboard it
 * was announced as dropped over itself, and moved by the pointer it landed past where the pointer was.
 *
 * With a pointer, the item under the pointer wins (else the nearest one above or below it). With the
 * keyboard, `sortableKeyboardCoordinates` lines the dragged box up with its target (top to top going
 * up, bottom to bottom going down), so the item with a matching top or bottom edge wins.
 */
export const verticalListCollisions: CollisionDetection = ({
  collisionRect,
  droppableRects,
  droppableContainers,
  pointerCoordinates,
}) => {
  const distanceOf = (rect: ClientRect) => {
    if (pointerCoordinates) {
      const y = pointerCoordinates.y;
      return y < rect.top ? rect.top - y : y > rect.bottom ? y - rect.bottom : 0;
    }
    return Math.min(Math.abs(rect.top - collisionRect.top), Math.abs(rect.bottom - collisionRect.bottom));
  };
  const collisions: (Collision & { data: { value: number } })[] = [];
  for (const container of droppableContainers) {
    const rect = droppableRects.get(container.id);
    if (!rect) continue;
    collisions.push({ id: container.id, data: { droppableContainer: container, value: distanceOf(rect) } });
  }
  return collisions.sort((a, b) => a.data.value - b.data.value);
};
