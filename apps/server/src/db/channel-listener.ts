import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { DatabaseHandle } from './client.ts';

/** A LISTEN on one channel of the database, kept up for the life of the process. */
export interface ChannelSubscription {
  /** False from the moment the connection is known lost until LISTEN is back. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface ChannelListenerOptions {
  channel: string;
  onNotification(payload: string): void;
  /**
   * Called whenever listening starts, the first time and after every reconnection: whatever was
   * sent on the channel while the connection was down is lost, so a listener that keeps state
   * derived from the notifications should distrust it here.
   */
  onListening(): void;
  log: FastifyBaseLogger;
  /** How often the idle connection is checked; a dead peer is otherwise noticed only by TCP. */
  heartbeatIntervalMs?: number;
  /** The first wait before reconnecting; it doubles up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

/** Shows which connection this is in `pg_stat_activity`. */
export const listenerApplicationName = 'letterset-listener';

/**
 * LISTENs on `channel`. PostgreSQL: on a connection of its own (the pool's connections come and
 * go), which reconnects with backoff when it drops. PGlite: in-process, on its only connection.
 */
export async function listenOnChannel(
  database: DatabaseHandle,
  options: ChannelListenerOptions,
): Promise<ChannelSubscription> {
  if (database.driver === 'pglite') {
    const unlisten = await database.pglite.listen(options.channel, options.onNotification);
    options.onListening();
    return { listening: true, close: () => unlisten() };
  }
  const listener = new PostgresChannelListener(database.connectionString, options);
  await listener.connect();
  return listener;
}

class PostgresChannelListener implements ChannelSubscription {
  listening = false;
  private client: pg.Client | null = null;
  private closed = false;
  private failedAttempts = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private readonly connectionString: string;
  private readonly options: Required<ChannelListenerOptions>;

  constructor(connectionString: string, options: ChannelListenerOptions) {
    this.connectionString = connectionString;
    this.options = {
      heartbeatIntervalMs: 10_000,
      reconnectDelayMs: 100,
      maxReconnectDelayMs: 5_000,
      ...options,
    };
  }

  /** Connects and LISTENs; the first call throws if it cannot, later ones are retried. */
  async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: listenerApplicationName,
      keepAlive: true,
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    client.on('notification', (message) => {
      if (message.channel === this.options.channel) this.options.onNotification(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.options.channel)}`);
    } catch (error) {
      client.removeAllListeners();
      client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    this.listening = true;
    this.failedAttempts = 0;
    this.options.onListening();
    this.scheduleHeartbeat(client);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners();
      await client.end().catch(() => {});
    }
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.listening = false;
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    client.removeAllListeners();
    // A late 'error' from the dead connection must not become an uncaught exception.
    client.on('error', () => {});
    client.end().catch(() => {});
    this.options.log.warn(
      { err: error, channel: this.options.channel },
      'database listener lost; reconnecting',
    );
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = Math.min(
      this.options.maxReconnectDelayMs,
      this.options.reconnectDelayMs * 2 ** Math.min(this.failedAttempts, 10),
    );
    this.failedAttempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().then(
        () => {
          if (this.listening)
            this.options.log.info({ channel: this.options.channel }, 'database listener back');
        },
        (error: unknown) => {
          this.options.log.warn(
            { err: error, channel: this.options.channel },
            'database listener reconnect failed',
          );
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref();
  }

  private scheduleHeartbeat(client: pg.Client): void {
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeatTimer = null;
      const timeout = setTimeout(
        () => this.lost(client, new Error('the heartbeat query got no answer')),
        this.options.heartbeatIntervalMs,
      );
      timeout.unref();
      client.query('select 1').then(
        () => {
          clearTimeout(timeout);
          if (this.client === client) this.scheduleHeartbeat(client);
        },
        (error: Error) => {
          clearTimeout(timeout);
          this.lost(client, error);
        },
      );
    }, this.options.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
  }
}
