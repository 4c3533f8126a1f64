import type { ComponentInstance } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { markerPosition, pinBranchKey, pinCoordinates, pinShowsInBranches, topOf } from './pin-math.ts';

const plain: ComponentInstance = { id: 'plain', component_id: 1, field_values: { null_branch: {} } };
const branched: ComponentInstance = {
  id: 'branched',
  component_id: 1,
  conditional_id: 7,
  field_values: { vip: {}, everyone: {} },
};

describe('pin offsets', () => {
  it('measures from the preview’s centre line and the top of the instance', () => {
    expect(pinCoordinates({ x: 250, y: 480 }, 600, 400)).toEqual({ center_offset_x_px: -50, y: 80 });
    expect(pinCoordinates({ x: 400.26, y: 10 }, 600, 40)).toEqual({ center_offset_x_px: 100.3, y: 0 });
  });

  it('places a marker back where it was clicked, and follows its instance when it moves or the width changes', () => {
    const coordinates = pinCoordinates({ x: 250, y: 480 }, 600, 400);
    expect(markerPosition(coordinates, 600, 400)).toEqual({ x: 250, y: 480 });
    // The instance scrolled up by 300 px; the preview went from 600 to 375 px wide (centred email).
    expect(markerPosition(coordinates, 375, 100)).toEqual({ x: 137.5, y: 180 });
  });

  it('takes the highest box of an instance, and none when it shows nowhere', () => {
    expect(topOf([{ top: 120 }, { top: 80 }, { top: 300 }])).toBe(80);
    expect(topOf([])).toBeNull();
  });
});

describe('pins and branches', () => {
  it('records the branch on screen for an instance with a conditional, none otherwise', () => {
    expect(pinBranchKey(plain, {})).toBeNull();
    expect(pinBranchKey(undefined, {})).toBeNull();
    expect(pinBranchKey(branched, {})).toBe('vip');
    expect(pinBranchKey(branched, { '7': 'everyone' })).toBe('everyone');
  });

  it('draws a pin only in the branch it was placed in', () => {
    const pin = { component_instance_id: 'branched', branch_key: 'everyone' };
    expect(pinShowsInBranches(pin, [plain, branched], { '7': 'everyone' })).toBe(true);
    expect(pinShowsInBranches(pin, [plain, branched], { '7': 'vip' })).toBe(false);
    expect(pinShowsInBranches({ component_instance_id: 'plain', branch_key: null }, [plain], {})).toBe(true);
  });
});
