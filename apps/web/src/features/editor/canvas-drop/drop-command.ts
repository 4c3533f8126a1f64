import {
  type InsertComponentCommand,
  insertComponent,
  type MoveComponentCommand,
  moveComponent,
} from '@letterset/core';
import { moveDestination } from './insertion-point.ts';

/** What is being dragged, carried in the draggable's data: a component of the palette, or an instance of the email. */
export type DragItem =
  | { kind: 'component'; componentId: number; label: string }
  | { kind: 'instance'; instanceId: string; label: string };

/**
 * Where it is dropped: a gap between instances (the preview's drop line; index 0 to the number of
 * instances), or a row of the outline, whose place a dropped item takes as the outline's sortable
 * list shows it (index of the row; the number of instances for the outline's end).
 */
export type DropPlace = { kind: 'gap'; index: number } | { kind: 'row'; index: number };

/** The droppable data of a drop target that maps the pointer to a gap itself (the preview's drop layer). */
export interface GapDropData {
  /** The gap under the pointer when the item is dropped, null when there is none. */
  gapIndex: () => number | null;
}

/** The editor command a drop makes, or null when it changes nothing. */
export function dropCommand(
  item: DragItem,
  place: DropPlace,
  instanceIds: readonly string[],
): InsertComponentCommand | MoveComponentCommand | null {
  const index = Math.max(0, Math.min(place.index, instanceIds.length));
  if (item.kind === 'component') return insertComponent({ componentId: item.componentId, index });
  const fromIndex = instanceIds.indexOf(item.instanceId);
  if (fromIndex === -1) return null;
  const toIndex =
    place.kind === 'gap' ? moveDestination(fromIndex, index) : Math.min(index, instanceIds.length - 1);
  return toIndex === null || toIndex === fromIndex ? null : moveComponent(item.instanceId, toIndex);
}
