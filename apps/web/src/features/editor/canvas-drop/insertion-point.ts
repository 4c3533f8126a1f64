/** Where an instance's rendering sits in the preview's viewport, with its position in the email's body. */
export interface InstanceBox {
  /** The instance's index among the email's body instances. */
  index: number;
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** A gap between instances: where a dropped component goes, and where its line is drawn. */
export interface InsertionPoint {
  /** The body index a new instance gets when dropped here. */
  index: number;
  /** The line's vertical position and horizontal extent, in the preview's viewport. */
  y: number;
  left: number;
  right: number;
}

/**
 * The gap nearest to a pointer's height among the instances the preview shows (in body order): before
 * the first instance whose middle is below the pointer, else after the last. Instances the preview does
 * not show (another branch, hidden in this locale) have no box: a gap's index comes right after the
 * shown instance above it, so the new instance appears where the line was. Null when nothing is shown.
 */
export function insertionPointAt(pointerY: number, boxes: readonly InstanceBox[]): InsertionPoint | null {
  const first = boxes[0];
  const last = boxes.at(-1);
  if (!first || !last) return null;
  const below = boxes.findIndex((box) => (box.top + box.bottom) / 2 > pointerY);
  if (below === 0) return { index: first.index, y: first.top, left: first.left, right: first.right };
  if (below === -1) return { index: last.index + 1, y: last.bottom, left: last.left, right: last.right };
  const above = boxes[below - 1] as InstanceBox;
  const next = boxes[below] as InstanceBox;
  return {
    index: above.index + 1,
    y: (above.bottom + next.top) / 2,
    left: Math.min(above.left, next.left),
    right: Math.max(above.right, next.right),
  };
}

/**
 * The index an instance moved into a gap ends at (the gap counts the instance itself, as the drop line
 * is drawn with it still in place), or null when the gap is either side of it: the move changes nothing.
 */
export function moveDestination(fromIndex: number, gapIndex: number): number | null {
  const toIndex = gapIndex > fromIndex ? gapIndex - 1 : gapIndex;
  return toIndex === fromIndex ? null : toIndex;
}

/**
 * The boxes of the body instances a preview document shows, in body order: each instance's box
 * surrounds every element it rendered (`data-es-instance`, see `tagInstances`) that takes up space.
 */
export function instanceBoxes(document: Document, instanceIds: readonly string[]): InstanceBox[] {
  const rectsById = new Map<string, DOMRect[]>();
  const wanted = new Set(instanceIds);
  for (const element of document.querySelectorAll('[data-es-instance]')) {
    const id = element.getAttribute('data-es-instance') as string;
    if (!wanted.has(id)) continue;
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    rectsById.set(id, [...(rectsById.get(id) ?? []), rect]);
  }
  return instanceIds.flatMap((id, index) => {
    const rects = rectsById.get(id);
    if (!rects) return [];
    return [
      {
        index,
        top: Math.min(...rects.map((rect) => rect.top)),
        bottom: Math.max(...rects.map((rect) => rect.bottom)),
        left: Math.min(...rects.map((rect) => rect.left)),
        right: Math.max(...rects.map((rect) => rect.right)),
      },
    ];
  });
}

/** How near the preview's top or bottom edge (in pixels) the pointer scrolls the email while dragging. */
export const edgeScrollZone = 48;
const edgeScrollMaxStep = 18;

/**
 * How far to scroll the preview in one animation frame while something is dragged with the pointer at
 * `y` in a preview `height` pixels high: up (negative) near the top, down near the bottom, faster the
 * nearer the edge, 0 elsewhere. So a drop can reach the parts of a long email that are out of view.
 */
export function edgeScrollStep(y: number, height: number): number {
  const depth =
    y < edgeScrollZone ? edgeScrollZone - y : y > height - edgeScrollZone ? y - (height - edgeScrollZone) : 0;
  if (depth <= 0) return 0;
  const step = Math.ceil((edgeScrollMaxStep * Math.min(depth, edgeScrollZone)) / edgeScrollZone);
  return y < edgeScrollZone ? -step : step;
}
