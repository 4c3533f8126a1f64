import type { StreamedEmailEvent } from '@letterset/core';
import { useEffect, useRef } from 'react';
import { followEmailEvents } from './email-event-streams.ts';

/**
 * Calls `onEvent` with what changes on an email while the component is mounted, from the server's
 * event stream (people commenting, deciding, publishing, saving, opening it). A reconnection is
 * handed over as `resync`, since events may have been missed meanwhile (see `followEmailEvents`).
 */
export function useEmailEvents(
  workspaceId: number,
  emailId: number,
  onEvent: (event: StreamedEmailEvent) => void,
): void {
  const latestOnEvent = useRef(onEvent);
  latestOnEvent.current = onEvent;
  useEffect(
    () => followEmailEvents(workspaceId, emailId, (event) => latestOnEvent.current(event)),
    [workspaceId, emailId],
  );
}
