import type { ServerResponse } from 'node:http';
import type { StreamedEmailEvent } from '@letterset/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type ChannelSubscription, listenOnChannel } from '../../db/channel-listener.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { type EmailEvent, emailEventsChannel } from './email-events.ts';
import { EmailPresenceRegistry } from './email-presence.ts';

type Viewer = (event: StreamedEmailEvent) => void;

/**
 * Hands the events announced on the database channel to the people viewing each email in this
 * process. One LISTEN per process, started with the first viewer, whatever the number of viewers:
 * a server with 50 editors open does not hold 50 database connections.
 */
export class EmailEventHub {
  private readonly viewersByEmail = new Map<number, Set<Viewer>>();
  private subscription: Promise<ChannelSubscription> | null = null;
  private closed = false;

  private readonly options: { database: DatabaseHandle; log: FastifyBaseLogger };

  constructor(options: { database: DatabaseHandle; log: FastifyBaseLogger }) {
    this.options = options;
  }

  /** Starts handing `viewer` the events of one email; resolves once the channel is heard. */
  async watch(emailId: number, viewer: Viewer): Promise<() => void> {
    let viewers = this.viewersByEmail.get(emailId);
    if (!viewers) {
      viewers = new Set();
      this.viewersByEmail.set(emailId, viewers);
    }
    viewers.add(viewer);
    const stop = () => {
      viewers.delete(viewer);
      if (viewers.size === 0 && this.viewersByEmail.get(emailId) === viewers)
        this.viewersByEmail.delete(emailId);
    };
    try {
      await this.listening();
    } catch (error) {
      stop();
      throw error;
    }
    return stop;
  }

  get viewerCount(): number {
    let total = 0;
    for (const viewers of this.viewersByEmail.values()) total += viewers.size;
    return total;
  }

  private listening(): Promise<ChannelSubscription> {
    if (this.closed) return Promise.reject(new Error('the email event hub is closed'));
    this.subscription ??= listenOnChannel(this.options.database, {
      channel: emailEventsChannel,
      log: this.options.log,
      onNotification: (payload) => this.deliver(payload),
      // Whatever was announced while the connection was down is lost: viewers reload what they show.
      onListening: () => {
        for (const emailId of this.viewersByEmail.keys())
          this.hand(emailId, { type: 'resync', email_id: emailId });
      },
    }).catch((error: unknown) => {
      this.subscription = null;
      throw error;
    });
    return this.subscription;
  }

  private deliver(payload: string): void {
    let event: EmailEvent;
    try {
      event = JSON.parse(payload) as EmailEvent;
    } catch {
      this.options.log.warn({ channel: emailEventsChannel }, 'an email event that is not JSON was ignored');
      return;
    }
    if (typeof event?.email_id === 'number') this.hand(event.email_id, event);
  }

  private hand(emailId: number, event: StreamedEmailEvent): void {
    for (const viewer of this.viewersByEmail.get(emailId) ?? []) viewer(event);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.viewersByEmail.clear();
    const subscription = await this.subscription?.catch(() => null);
    await subscription?.close();
  }
}

/** Seconds between comment lines that keep proxies from closing an idle stream. */
const keepAliveIntervalMs = 25_000;

/**
 * Streams one email's events to a browser as server-sent events until it goes away (or the server
 * closes). The caller has checked that the viewer may see the email.
 */
export async function streamEmailEvents(
  hub: EmailEventHub,
  emailId: number,
  response: ServerResponse,
  openStreams: Set<ServerResponse>,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies that buffer responses (nginx) would hold the events back.
    'x-accel-buffering': 'no',
  });
  // Browsers reconnect after this many milliseconds when the stream drops.
  response.write('retry: 2000\n\n');
  const send = (event: StreamedEmailEvent) => {
    response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  const stopWatching = await hub.watch(emailId, send);
  openStreams.add(response);
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), keepAliveIntervalMs);
  response.on('close', () => {
    clearInterval(keepAlive);
    stopWatching();
    openStreams.delete(response);
  });
  // Sent once the channel is heard, so a client that sees it misses no later event.
  response.write(`event: ready\ndata: ${JSON.stringify({ type: 'ready', email_id: emailId })}\n\n`);
}

declare module 'fastify' {
  interface FastifyInstance {
    emailEvents: { hub: EmailEventHub; openStreams: Set<ServerResponse>; presence: EmailPresenceRegistry };
  }
}

export function registerEmailEvents(app: FastifyInstance): void {
  const hub = new EmailEventHub({ database: app.services.database, log: app.log });
  const openStreams = new Set<ServerResponse>();
  app.decorate('emailEvents', { hub, openStreams, presence: new EmailPresenceRegistry({ hub }) });
  // Before the server stops: an open stream would otherwise keep it waiting for ever.
  app.addHook('preClose', async () => {
    for (const response of openStreams) response.end();
    openStreams.clear();
  });
  app.addHook('onClose', () => hub.close());
}
