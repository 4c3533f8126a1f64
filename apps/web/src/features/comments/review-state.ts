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

export function useReviewState(): ReviewState {
  const [pinMode, setPinMode] = useState(false);
  const [pendingPin, setPendingPin] = useState<PendingPin | null>(null);
  const [selectedThreadId, selectThread] = useState<number | null>(null);
  const [showResolved, setShowResolved] = useState(false);
  return useMemo(
    () => ({
      pinMode,
      setPinMode,
      pendingPin,
      setPendingPin,
      selectedThreadId,
      selectThread,
      showResolved,
      setShowResolved,
    }),
    [pinMode, pendingPin, selectedThreadId, showResolved],
  );
}
