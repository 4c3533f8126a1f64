import { describe, expect, it } from 'vitest';
import {
  formattingBarPosition,
  instanceToolbarPosition,
  matchingTextStyle,
  sameBox,
  unionBox,
} from './overlay-geometry.ts';

const frame = { width: 660, height: 700 };
const toolbar = { width: 100, height: 28 };

describe('unionBox', () => {
  it('holds every box of an instance, ignoring empty ones', () => {
    expect(
      unionBox([
        { top: 100, left: 30, width: 600, height: 50 },
        { top: 0, left: 0, width: 0, height: 0 },
        { top: 150, left: 30, width: 600, height: 80 },
      ]),
    ).toEqual({ top: 100, left: 30, width: 600, height: 130 });
    expect(unionBox([])).toBeNull();
    expect(unionBox([{ top: 5, left: 5, width: 0, height: 0 }])).toBeNull();
  });
});

describe('sameBox', () => {
  it('compares every side, and absence', () => {
    const box = { top: 1, left: 2, width: 3, height: 4 };
    expect(sameBox(box, { ...box })).toBe(true);
    expect(sameBox(box, { ...box, height: 5 })).toBe(false);
    expect(sameBox(null, null)).toBe(true);
    expect(sameBox(box, null)).toBe(false);
  });
});

describe('instanceToolbarPosition', () => {
  it('sits just above the instance, right-aligned with it', () => {
    expect(instanceToolbarPosition({ top: 200, left: 30, width: 600, height: 100 }, toolbar, frame)).toEqual({
      top: 168,
      left: 530,
    });
  });

  it('moves inside the instance when the frame has no room above it, even scrolled partly out', () => {
    expect(instanceToolbarPosition({ top: 10, left: 30, width: 600, height: 100 }, toolbar, frame)).toEqual({
      top: 14,
      left: 526,
    });
    expect(instanceToolbarPosition({ top: -50, left: 30, width: 600, height: 100 }, toolbar, frame)).toEqual({
      top: 4,
      left: 526,
    });
  });

  it('stays inside the frame, and is not shown for an instance out of view', () => {
    expect(instanceToolbarPosition({ top: 200, left: 0, width: 60, height: 20 }, toolbar, frame)?.left).toBe(
      0,
    );
    expect(
      instanceToolbarPosition({ top: 200, left: 600, width: 200, height: 20 }, toolbar, frame)?.left,
    ).toBe(560);
    expect(
      instanceToolbarPosition({ top: -120, left: 30, width: 600, height: 100 }, toolbar, frame),
    ).toBeNull();
    expect(
      instanceToolbarPosition({ top: 700, left: 30, width: 600, height: 100 }, toolbar, frame),
    ).toBeNull();
  });
});

describe('formattingBarPosition', () => {
  it('goes above the edited text when there is room, else below it, inside the frame', () => {
    const bar = { width: 200, height: 30 };
    expect(formattingBarPosition({ top: 300, left: 50, width: 500, height: 60 }, bar, frame)).toEqual({
      top: 266,
      left: 50,
    });
    expect(formattingBarPosition({ top: 10, left: 50, width: 500, height: 60 }, bar, frame)).toEqual({
      top: 74,
      left: 50,
    });
    expect(formattingBarPosition({ top: 300, left: 550, width: 100, height: 60 }, bar, frame).left).toBe(460);
  });
});

describe('matchingTextStyle', () => {
  it('copies the text styles an editor needs to look like the element, leaving out what the element lacks', () => {
    const computed = new Map([
      ['font-family', 'Arial, sans-serif'],
      ['font-size', '32px'],
      ['color', 'rgb(33, 37, 41)'],
      ['text-align', 'center'],
      ['padding-left', '28px'],
      ['display', 'inline-block'],
    ]);
    expect(
      matchingTextStyle({ getPropertyValue: (property: string) => computed.get(property) ?? '' }),
    ).toEqual({
      'font-family': 'Arial, sans-serif',
      'font-size': '32px',
      color: 'rgb(33, 37, 41)',
      'text-align': 'center',
      'padding-left': '28px',
    });
  });
});
