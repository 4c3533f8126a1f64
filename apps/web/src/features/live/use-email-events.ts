import { emailEventTypes, type StreamedEmailEvent } from '@letterset/core';
import { useEffect, useRef } from 'react';

/**
 * Calls `onEvent` with what changes on an email while the component is mounted, from the server's
 * event stream (people commenting, deciding, publishing, saving). The browser reconnects by itself
 * when the stream drops; a reconnection is handed over as `resync`, since events may have been
 * missed meanwhile.
 */
export function useEmailEvents(
  workspaceId: number,
  emailId: number,
  onEvent: (event: StreamedEmailEvent) => void,
): void {
  const latestOnEvent = useRef(onEvent);
  latestOnEvent.current = onEvent;
  useEffect(() => {
    const source = new EventSource(`/api/v1/workspaces/${workspaceId}/emails/${emailId}/events`, {
      withCredentials: true,
    });
    const hand = (message: MessageEvent<string>) => {
      latestOnEvent.current(JSON.parse(message.data) as StreamedEmailEvent);
    };
    for (const type of emailEventTypes) source.addEventListener(type, hand);
    let subscribedBefore = false;
    source.addEventListener('ready', () => {
      if (subscribedBefore) latestOnEvent.current({ type: 'resync', email_id: emailId });
      subscribedBefore = true;
    });
    return () => source.close();
  }, [workspaceId, emailId]);
}
