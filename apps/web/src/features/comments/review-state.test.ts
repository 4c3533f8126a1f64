import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { marksInLocale, type PendingPin, useReviewState } from './review-state.ts';

const pin: PendingPin = {
  component_instance_id: 'hero',
  branch_key: null,
  coordinates: { center_offset_x_px: 40, y: 30 },
  label: 'Hero',
};

describe('review marks', () => {
  it('keeps a pin and a selection in the locale they were made in, and drops them in another', () => {
    const marks = { locale: 'en-US', pendingPin: pin, selectedThreadId: 7 };
    expect(marksInLocale(marks, 'en-US')).toBe(marks);
    expect(marksInLocale(marks, 'de-DE')).toEqual({
      locale: 'de-DE',
      pendingPin: null,
      selectedThreadId: null,
    });
  });

  it('keeps a pin placed while the Review panel was closed, as on a phone, until the locale changes', () => {
    const { result, rerender } = renderHook(({ locale }) => useReviewState(locale), {
      initialProps: { locale: 'en-US' },
    });
    act(() => result.current.setPinMode(true));
    // The tap on the preview: the pin is placed and the tool put away; the panel opens for the comment.
    act(() => {
      result.current.setPendingPin(pin);
      result.current.setPinMode(false);
    });
    rerender({ locale: 'en-US' });
    expect(result.current.pendingPin).toEqual(pin);
    expect(result.current.pinMode).toBe(false);

    act(() => result.current.selectThread(12));
    expect(result.current.selectedThreadId).toBe(12);
    rerender({ locale: 'de-DE' });
    expect(result.current.pendingPin).toBeNull();
    expect(result.current.selectedThreadId).toBeNull();
  });
});
