/**
 * Where things drawn over the preview go. Boxes are in the preview frame's viewport (what
 * getBoundingClientRect gives inside the frame), which is also the overlay layer's coordinate
 * space: the layer covers the frame exactly.
 */

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

/** The smallest box holding all the given ones (empty ones ignored: hidden elements), or null for none. */
export function unionBox(boxes: readonly Box[]): Box | null {
  const shown = boxes.filter((box) => box.width > 0 || box.height > 0);
  if (shown.length === 0) return null;
  const top = Math.min(...shown.map((box) => box.top));
  const left = Math.min(...shown.map((box) => box.left));
  const bottom = Math.max(...shown.map((box) => box.top + box.height));
  const right = Math.max(...shown.map((box) => box.left + box.width));
  return { top, left, width: right - left, height: bottom - top };
}

/** Whether two boxes (or their absence) are the same. */
export function sameBox(one: Box | null, other: Box | null): boolean {
  if (!one || !other) return one === other;
  return (
    one.top === other.top &&
    one.left === other.left &&
    one.width === other.width &&
    one.height === other.height
  );
}

/** The gap between a floating toolbar and what it belongs to. */
const gap = 4;

/**
 * The selected instance's toolbar: right-aligned with the instance (the left edge is left free for
 * other handles), just above its top edge when the frame has room there, else just inside it; kept
 * inside the frame. Null when the instance is scrolled out of view.
 */
export function instanceToolbarPosition(
  instance: Box,
  toolbar: Size,
  frame: Size,
): { top: number; left: number } | null {
  if (instance.top + instance.height <= 0 || instance.top >= frame.height) return null;
  const above = instance.top - toolbar.height - gap;
  const top = above >= 0 ? above : Math.max(instance.top, 0) + gap;
  const right = Math.min(instance.left + instance.width, frame.width);
  const left = Math.max(0, right - toolbar.width - (above >= 0 ? 0 : gap));
  return { top, left };
}

/** A formatting bar for an in-place editor: above the edited box when there is room, else below it. */
export function formattingBarPosition(edited: Box, bar: Size, frame: Size): { top: number; left: number } {
  const above = edited.top - bar.height - gap;
  const top = above >= 0 ? above : edited.top + edited.height + gap;
  const left = Math.max(0, Math.min(edited.left, frame.width - bar.width));
  return { top, left };
}

/** The text styles an in-place editor copies from the element it covers, so the text does not move. */
export const copiedTextProperties = [
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'line-height',
  'letter-spacing',
  'text-transform',
  'text-align',
  'text-decoration-line',
  'color',
  'background-color',
  'border-radius',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
] as const;

/**
 * The element's computed text styles as inline style entries (CSS property names), to give an
 * editor the look of what it covers.
 */
export function matchingTextStyle(
  computed: Pick<CSSStyleDeclaration, 'getPropertyValue'>,
): Record<string, string> {
  const style: Record<string, string> = {};
  for (const property of copiedTextProperties) {
    const value = computed.getPropertyValue(property);
    if (value) style[property] = value;
  }
  return style;
}
