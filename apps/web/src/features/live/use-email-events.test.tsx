import type { StreamedEmailEvent } from '@letterset/core';
import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useEmailEvents } from './use-email-events.ts';

/** Stands in for the browser's EventSource: the test plays the server's side. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, ((message: MessageEvent<string>) => void)[]>();
  closed = false;
  readonly url: string;
  readonly init: EventSourceInit;
  constructor(url: string, init: EventSourceInit) {
    this.url = url;
    this.init = init;
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (message: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  send(type: string, data: object) {
    for (const listener of this.listeners.get(type) ?? [])
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

describe('useEmailEvents', () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('follows the email’s stream with the session cookie, and hands over each event', () => {
    const received: StreamedEmailEvent[] = [];
    renderHook(() => useEmailEvents(3, 42, (event) => received.push(event)));
    const [source] = FakeEventSource.opened;
    expect(source?.url).toBe('/api/v1/workspaces/3/emails/42/events');
    expect(source?.init).toEqual({ withCredentials: true });
    source?.send('ready', { type: 'ready', email_id: 42 });
    source?.send('comments_changed', { type: 'comments_changed', email_id: 42, locale: 'fr-FR' });
    source?.send('status_changed', { type: 'status_changed', email_id: 42, status: 'approved' });
    expect(received).toEqual([
      { type: 'comments_changed', email_id: 42, locale: 'fr-FR' },
      { type: 'status_changed', email_id: 42, status: 'approved' },
    ]);
  });

  it('hands over a resync when the browser reconnected, since events may have been missed', () => {
    const received: StreamedEmailEvent[] = [];
    renderHook(() => useEmailEvents(3, 42, (event) => received.push(event)));
    const [source] = FakeEventSource.opened;
    source?.send('ready', { type: 'ready', email_id: 42 });
    expect(received).toEqual([]);
    source?.send('ready', { type: 'ready', email_id: 42 });
    expect(received).toEqual([{ type: 'resync', email_id: 42 }]);
  });

  it('closes the stream when unmounted or when the email changes', () => {
    const { rerender, unmount } = renderHook(({ emailId }) => useEmailEvents(3, emailId, () => {}), {
      initialProps: { emailId: 42 },
    });
    rerender({ emailId: 43 });
    expect(FakeEventSource.opened.map((source) => [source.url, source.closed])).toEqual([
      ['/api/v1/workspaces/3/emails/42/events', true],
      ['/api/v1/workspaces/3/emails/43/events', false],
    ]);
    unmount();
    expect(FakeEventSource.opened[1]?.closed).toBe(true);
  });

  it('shares one stream among the parts of the page that follow the same email', () => {
    const first: StreamedEmailEvent[] = [];
    const second: StreamedEmailEvent[] = [];
    const one = renderHook(() => useEmailEvents(3, 42, (event) => first.push(event)));
    const two = renderHook(() => useEmailEvents(3, 42, (event) => second.push(event)));
    expect(FakeEventSource.opened).toHaveLength(1);
    const [source] = FakeEventSource.opened;
    source?.send('content_changed', { type: 'content_changed', email_id: 42, lock_version: 5 });
    expect(first).toEqual(second);
    expect(first).toHaveLength(1);
    one.unmount();
    expect(source?.closed).toBe(false);
    two.unmount();
    expect(source?.closed).toBe(true);
  });
});
