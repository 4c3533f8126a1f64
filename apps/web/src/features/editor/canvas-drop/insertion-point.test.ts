import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  edgeScrollStep,
  edgeScrollZone,
  type InstanceBox,
  insertionPointAt,
  instanceBoxes,
  moveDestination,
} from './insertion-point.ts';

function box(index: number, top: number, bottom: number, left = 30, right = 630): InstanceBox {
  return { index, top, bottom, left, right };
}

/** Three instances stacked from y 0 to 300, 100 pixels each. */
const stacked = [box(0, 0, 100), box(1, 100, 200), box(2, 200, 300)];

describe('insertionPointAt', () => {
  it('puts the line before an instance when the pointer is above its middle, after it below', () => {
    expect(insertionPointAt(40, stacked)).toEqual({ index: 0, y: 0, left: 30, right: 630 });
    expect(insertionPointAt(60, stacked)).toEqual({ index: 1, y: 100, left: 30, right: 630 });
    expect(insertionPointAt(149, stacked)).toEqual({ index: 1, y: 100, left: 30, right: 630 });
    expect(insertionPointAt(151, stacked)).toEqual({ index: 2, y: 200, left: 30, right: 630 });
    expect(insertionPointAt(260, stacked)).toEqual({ index: 3, y: 300, left: 30, right: 630 });
  });

  it('takes the first gap above the email and the last one below it', () => {
    expect(insertionPointAt(-500, stacked)?.index).toBe(0);
    expect(insertionPointAt(5000, stacked)?.index).toBe(3);
  });

  it('draws the line halfway across the space between two instances, as wide as both', () => {
    const spaced = [box(0, 0, 80, 40, 620), box(1, 120, 200, 20, 600)];
    expect(insertionPointAt(90, spaced)).toEqual({ index: 1, y: 100, left: 20, right: 620 });
  });

  it('puts a drop after the shown instance above when instances between them are not shown', () => {
    // Instances 1 and 2 are in another branch: the new one goes right after instance 0, above 3 on screen.
    const withHidden = [box(0, 0, 100), box(3, 100, 200)];
    expect(insertionPointAt(120, withHidden)?.index).toBe(1);
    expect(insertionPointAt(180, withHidden)?.index).toBe(4);
    // The top of the email keeps hidden instances before the first shown one before the new one.
    expect(insertionPointAt(10, [box(2, 0, 100)])?.index).toBe(2);
  });

  it('offers no gap when the preview shows no instance', () => {
    expect(insertionPointAt(10, [])).toBeNull();
  });

  it('moves the line down, never up, as the pointer moves down, and keeps it between neighbours', () => {
    const heights = fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(heights, fc.array(fc.integer({ min: -200, max: 5000 })), (sizes, pointerYs) => {
        let top = 0;
        const boxes = sizes.map((size, index) => {
          const entry = box(index, top, top + size);
          top += size;
          return entry;
        });
        let previous = { index: -1, y: Number.NEGATIVE_INFINITY };
        for (const y of [...pointerYs].sort((a, b) => a - b)) {
          const point = insertionPointAt(y, boxes);
          expect(point).not.toBeNull();
          if (!point) return;
          expect(point.index).toBeGreaterThanOrEqual(previous.index);
          expect(point.y).toBeGreaterThanOrEqual(previous.y);
          expect(point.index).toBeGreaterThanOrEqual(0);
          expect(point.index).toBeLessThanOrEqual(boxes.length);
          // The line is the bottom of the instance before the gap and the top of the one after it.
          const after = boxes[point.index];
          const before = boxes[point.index - 1];
          if (after) expect(point.y).toBe(after.top);
          if (before) expect(point.y).toBe(before.bottom);
          previous = point;
        }
      }),
    );
  });
});

describe('moveDestination', () => {
  it('counts the moved instance in the gaps: a gap below it is one index less once it is taken out', () => {
    expect(moveDestination(0, 3)).toBe(2);
    expect(moveDestination(2, 0)).toBe(0);
    expect(moveDestination(1, 3)).toBe(2);
  });

  it('changes nothing for the gaps right above and right below the instance', () => {
    expect(moveDestination(1, 1)).toBeNull();
    expect(moveDestination(1, 2)).toBeNull();
  });

  it('lands the instance in the gap it was dropped in, between the same neighbours', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 10 })
          .chain((count) => fc.tuple(fc.constant(count), fc.nat({ max: count - 1 }), fc.nat({ max: count }))),
        ([count, from, gap]) => {
          const ids = Array.from({ length: count }, (_, index) => `i${index}`);
          const moved = ids[from] as string;
          const above = ids[gap - 1];
          const below = ids[gap];
          const to = moveDestination(from, gap);
          if (to === null) {
            expect([from, from + 1]).toContain(gap);
            return;
          }
          const result = ids.filter((id) => id !== moved);
          result.splice(to, 0, moved);
          if (above !== undefined && above !== moved) expect(result[result.indexOf(moved) - 1]).toBe(above);
          if (below !== undefined && below !== moved) expect(result[result.indexOf(moved) + 1]).toBe(below);
        },
      ),
    );
  });
});

describe('instanceBoxes', () => {
  function place(element: Element, rect: { top: number; bottom: number; left: number; right: number }) {
    const domRect = {
      ...rect,
      x: rect.left,
      y: rect.top,
      width: rect.right - rect.left,
      height: rect.bottom - rect.top,
    };
    element.getBoundingClientRect = () => ({ ...domRect, toJSON: () => domRect }) as DOMRect;
  }

  it('surrounds every element an instance rendered, skips empty ones, and follows the body order', () => {
    const document = new DOMParser().parseFromString(
      `<table><tbody>
        <tr id="b1" data-es-instance="b"></tr>
        <tr id="a1" data-es-instance="a"></tr><tr id="a2" data-es-instance="a"></tr>
        <tr id="a3" data-es-instance="a"></tr>
      </tbody></table>`,
      'text/html',
    );
    const elements = ['b1', 'a1', 'a2', 'a3'].map((id) => document.getElementById(id) as Element);
    const [b1, a1, a2, a3] = elements as [Element, Element, Element, Element];
    place(b1, { top: 0, bottom: 50, left: 30, right: 630 });
    place(a1, { top: 50, bottom: 80, left: 40, right: 620 });
    place(a2, { top: 80, bottom: 120, left: 30, right: 600 });
    // An empty row (a conditional's unchosen branch) has no size and does not stretch the box.
    place(a3, { top: 0, bottom: 0, left: 0, right: 0 });
    expect(instanceBoxes(document, ['a', 'hidden', 'b'])).toEqual([
      { index: 0, top: 50, bottom: 120, left: 30, right: 620 },
      { index: 2, top: 0, bottom: 50, left: 30, right: 630 },
    ]);
  });
});

describe('edgeScrollStep', () => {
  it('scrolls up near the top, down near the bottom, faster nearer the edge, and not in between', () => {
    expect(edgeScrollStep(300, 600)).toBe(0);
    expect(edgeScrollStep(edgeScrollZone, 600)).toBe(0);
    expect(edgeScrollStep(600 - edgeScrollZone, 600)).toBe(0);
    expect(edgeScrollStep(40, 600)).toBeLessThan(0);
    expect(edgeScrollStep(2, 600)).toBeLessThan(edgeScrollStep(40, 600));
    expect(edgeScrollStep(560, 600)).toBeGreaterThan(0);
    expect(edgeScrollStep(598, 600)).toBeGreaterThan(edgeScrollStep(560, 600));
  });

  it('keeps its speed within bounds beyond the edge', () => {
    expect(edgeScrollStep(-100, 600)).toBe(edgeScrollStep(0, 600));
    expect(edgeScrollStep(900, 600)).toBe(edgeScrollStep(600, 600));
  });
});
