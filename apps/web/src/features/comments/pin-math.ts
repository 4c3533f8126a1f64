import { type BranchSelection, type ComponentInstance, selectBranch } from '@letterset/core';

export interface PinCoordinates {
  /** From the preview's horizontal centre line, in CSS pixels: emails are centred at any width. */
  center_offset_x_px: number;
  /** Below the top of the pinned instance (of the email when pinned on none), in CSS pixels. */
  y: number;
}

/**
 * Where a click in the preview pins, all in the preview's viewport coordinates: the click, the
 * viewport's width, and the top of the instance under the click (or of the document, for a pin on
 * the email itself).
 */
export function pinCoordinates(click: { x: number; y: number }, viewportWidth: number, anchorTop: number) {
  return {
    center_offset_x_px: round(click.x - viewportWidth / 2),
    y: Math.max(0, round(click.y - anchorTop)),
  } satisfies PinCoordinates;
}

/** Where a pin's marker goes in the preview's viewport, its anchor's top being where it is now. */
export function markerPosition(coordinates: PinCoordinates, viewportWidth: number, anchorTop: number) {
  return { x: viewportWidth / 2 + coordinates.center_offset_x_px, y: anchorTop + coordinates.y };
}

/** The top of what an instance rendered: the highest of its elements' boxes, or null if none shows. */
export function topOf(boxes: readonly { top: number }[]): number | null {
  return boxes.length === 0 ? null : Math.min(...boxes.map((box) => box.top));
}

/**
 * The branch a pin on this instance belongs to: the one on screen when it has a conditional, null
 * when it has none (it shows in every branch).
 */
export function pinBranchKey(
  instance: ComponentInstance | undefined,
  selection: BranchSelection,
): string | null {
  if (instance?.conditional_id == null) return null;
  return selectBranch(instance.conditional_id, Object.keys(instance.field_values ?? {}), selection);
}

/** Whether a pin belongs on screen with the branches chosen now. */
export function pinShowsInBranches(
  pin: { component_instance_id: string | null; branch_key: string | null },
  instances: readonly ComponentInstance[],
  selection: BranchSelection,
): boolean {
  if (pin.branch_key === null || pin.component_instance_id === null) return true;
  const instance = instances.find((candidate) => candidate.id === pin.component_instance_id);
  return pinBranchKey(instance, selection) === pin.branch_key;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
