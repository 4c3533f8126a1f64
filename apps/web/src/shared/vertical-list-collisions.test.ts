import type { ClientRect, DroppableContainer, UniqueIdentifier } from '@dnd-kit/core';
import { describe, expect, it } from 'vitest';
import { verticalListCollisions } from './vertical-list-collisions.ts';

function rect(top: number, height: number): ClientRect {
  return { top, bottom: top + height, height, left: 0, right: 300, width: 300 };
}

/** A list with an open item (700 px) above two closed ones (46 px), 8 px apart. */
const rects = new Map<UniqueIdentifier, ClientRect>([
  ['open', rect(0, 700)],
  ['second', rect(708, 46)],
  ['third', rect(762, 46)],
]);
const containers = [...rects.keys()].map(
  (id) =>
    ({
      id,
      key: String(id),
      data: { current: {} },
      disabled: false,
      node: { current: null },
      rect: { current: null },
    }) as unknown as DroppableContainer,
);

function overOf(collisionRect: ClientRect, pointerCoordinates: { x: number; y: number } | null) {
  const collisions = verticalListCollisions({
    active: { id: 'open', data: { current: {} }, rect: { current: { initial: null, translated: null } } },
    collisionRect,
    droppableRects: rects,
    droppableContainers: containers,
    pointerCoordinates,
  });
  return collisions[0]?.id;
}

describe('verticalListCollisions', () => {
  it('takes the item a keyboard move lined the dragged box up with, even when the box is taller', () => {
    // Arrow down from the open item: its bottom meets the second item's bottom.
    expect(overOf(rect(754 - 700, 700), null)).toBe('second');
    // Arrow down again: the third's bottom.
    expect(overOf(rect(808 - 700, 700), null)).toBe('third');
    // Not moved: over itself.
    expect(overOf(rect(0, 700), null)).toBe('open');
  });

  it('takes the item a closed one is moved to with the keyboard, above or below', () => {
    // The third item moved up to the open one: top to top.
    expect(overOf(rect(0, 46), null)).toBe('open');
    expect(overOf(rect(708, 46), null)).toBe('second');
  });

  it('takes the item under the pointer, whatever the dragged box covers', () => {
    // The open item dragged by its handle at its top to the second item's handle.
    expect(overOf(rect(720, 700), { x: 20, y: 730 })).toBe('second');
    expect(overOf(rect(0, 46), { x: 20, y: 30 })).toBe('open');
  });

  it('takes the nearest item when the pointer is in a gap or beyond the list', () => {
    expect(overOf(rect(700, 46), { x: 20, y: 756 })).toBe('second');
    expect(overOf(rect(700, 46), { x: 20, y: 760 })).toBe('third');
    expect(overOf(rect(900, 46), { x: 20, y: 2000 })).toBe('third');
    expect(overOf(rect(-100, 46), { x: 20, y: -50 })).toBe('open');
  });
});
