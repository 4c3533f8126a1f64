import { emailEventTypes, type StreamedEmailEvent } from '@letterset/core';

type Listener = (event: StreamedEmailEvent) => void;

interface SharedStream {
  source: EventSource;
  listeners: Set<Listener>;
}

const streams = new Map<string, SharedStream>();

/**
 * Follows one email's event stream, sharing one EventSource among every part of the page that
 * follows the same email (the editor, its presence, comments, review actions): a browser opens
 * only a handful of connections to one server, and a stream holds one for as long as it is open.
 * The browser reconnects by itself when the stream drops; a reconnection is handed over as
 * `resync`, since events may have been missed meanwhile. Returns the function that stops.
 */
export function followEmailEvents(workspaceId: number, emailId: number, listener: Listener): () => void {
  // Without EventSource (tests' DOM, very old browsers) the page simply is not live.
  if (typeof EventSource === 'undefined') return () => undefined;
  const key = `${workspaceId}/${emailId}`;
  let stream = streams.get(key);
  if (!stream) {
    const source = new EventSource(`/api/v1/workspaces/${workspaceId}/emails/${emailId}/events`, {
      withCredentials: true,
    });
    const opened: SharedStream = { source, listeners: new Set() };
    const hand = (event: StreamedEmailEvent) => {
      for (const each of [...opened.listeners]) each(event);
    };
    for (const type of emailEventTypes)
      source.addEventListener(type, (message: MessageEvent<string>) => hand(JSON.parse(message.data)));
    let subscribedBefore = false;
    source.addEventListener('ready', () => {
      if (subscribedBefore) hand({ type: 'resync', email_id: emailId });
      subscribedBefore = true;
    });
    stream = opened;
    streams.set(key, stream);
  }
  const followed = stream;
  followed.listeners.add(listener);
  return () => {
    followed.listeners.delete(listener);
    if (followed.listeners.size > 0 || streams.get(key) !== followed) return;
    streams.delete(key);
    followed.source.close();
  };
}
