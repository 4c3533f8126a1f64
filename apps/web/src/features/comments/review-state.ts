import { useMemo, useState } from 'react';
import type { NewPin } from './comments-api.ts';

/** A pin placed on the preview, waiting for its comment. */
export interface PendingPin extends NewPin {
  /** What the pin is on, as the composer names it. */
  label: string;
}

/**
 * What the Review panel and the pins over the preview share: the pin tool, a pin waiting for its
 * comment, and the thread selected (in the panel or by its marker).
 */
export interface ReviewState {
  pinMode: boolean;
  setPinMode: (on: boolean) => void;
  pendingPin: PendingPin | null;
  setPendingPin: (pin: PendingPin | null) => void;
  selectedThreadId: number | null;
  selectThread: (threadId: number | null) => void;
  /** Resolved threads show (in the panel and as pins) only when asked. */
  showResolved: boolean;
  setShowResolved: (show: boolean) => void;
}

/** A pin waiting for its comment and the thread selected, both of the locale they were made in. */
export interface ReviewMarks {
  locale: string;
  pendingPin: PendingPin | null;
  selectedThreadId: number | null;
}

/** The marks with the locale on screen: kept in the locale they were made in, dropped in another. */
export function marksInLocale(marks: ReviewMarks, locale: string): ReviewMarks {
  return marks.locale === locale ? marks : { locale, pendingPin: null, selectedThreadId: null };
}

/**
 * The review state of the editor showing `locale`. It lives with the editor, not with the Review
 * panel: on a phone the panel is a sheet that closes while a pin is placed, and opening it again
 * for the comment must find the pin still there.
 */
export function useReviewState(locale: string): ReviewState {
  const [pinMode, setPinMode] = useState(false);
  const [storedMarks, setMarks] = useState<ReviewMarks>({ locale, pendingPin: null, selectedThreadId: null });
  const marks = marksInLocale(storedMarks, locale);
  if (marks !== storedMarks) setMarks(marks);
  const [showResolved, setShowResolved] = useState(false);
  const { pendingPin, selectedThreadId } = marks;
  return useMemo(
    () => ({
      pinMode,
      setPinMode,
      pendingPin,
      setPendingPin: (pin: PendingPin | null) => setMarks((current) => ({ ...current, pendingPin: pin })),
      selectedThreadId,
      selectThread: (threadId: number | null) =>
        setMarks((current) => ({ ...current, selectedThreadId: threadId })),
      showResolved,
      setShowResolved,
    }),
    [pinMode, pendingPin, selectedThreadId, showResolved],
  );
}
