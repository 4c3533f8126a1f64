import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type ChannelSubscription, listenOnChannel } from '../db/channel-listener.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Principal } from './principal.ts';

interface Entry {
  principal: Principal;
  /** Workspaces this principal was let into, by id: access checks are per request otherwise. */
  workspaces: Map<number, { id: number; name: string }>;
  expiresAt: number;
}

/**
 * Who a session or API-key token stands for, remembered for a few seconds so that a request costs
 * one query for its data instead of three, and answers read from the same data (`GET /me`). Any
 * write that changes who may do what (roles, users, memberships, teams, keys, sessions) makes every
 * server process forget the organization's entries at once (see `AccessChanges`); `ttlMs` only
 * bounds how long a process may act on what it saw while it could not hear about such writes (its
 * listener connection was down).
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  /** Answers read from an organization's people and workspaces, by `${organizationId}:${key}`. */
  private readonly answers = new Map<
    string,
    { organizationId: number; answer: unknown; expiresAt: number }
  >();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Counts forgets: a principal read before one may be stale and is not remembered. */
  private forgets = 0;

  constructor(options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get(tokenKey: string): Entry | undefined {
    const entry = this.entries.get(tokenKey);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(tokenKey);
      return undefined;
    }
    return entry;
  }

  /** Call before reading a principal from the database, and hand the answer to `remember`. */
  lookupStarted(): number {
    return this.forgets;
  }

  /**
   * Keeps the principal read since `lookupStarted()`, unless entries were forgotten meanwhile: the
   * read may then predate the change that caused it. The entry is returned either way.
   */
  remember(tokenKey: string, principal: Principal, lookupStarted: number): Entry {
    const entry = { principal, workspaces: new Map(), expiresAt: this.now() + this.ttlMs };
    if (lookupStarted === this.forgets) this.keep(this.entries, tokenKey, entry);
    return entry;
  }

  /**
   * An answer made only of what the organization's access writes change (who someone is, their
   * role, memberships and workspaces: `/me`), read by `load` at most once per time-to-live and
   * forgotten with the organization's principals. Callers share the answer: treat it as read-only.
   */
  async answer<T>(organizationId: number, key: string, load: () => Promise<T>): Promise<T> {
    const answerKey = `${organizationId}:${key}`;
    const remembered = this.answers.get(answerKey);
    if (remembered && remembered.expiresAt > this.now()) return remembered.answer as T;
    const lookupStarted = this.forgets;
    const answer = await load();
    // As for principals: a read that a forget overtook may predate the change, so it is not kept.
    if (lookupStarted === this.forgets) {
      this.keep(this.answers, answerKey, { organizationId, answer, expiresAt: this.now() + this.ttlMs });
    }
    return answer;
  }

  private keep<Kept>(map: Map<string, Kept>, key: string, kept: Kept): void {
    // Insertion order is age order: dropping the first entry drops the oldest.
    map.delete(key);
    if (map.size >= this.maxEntries) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(key, kept);
  }

  /** Forgets the principals of one organization, or of all (null). */
  forget(organizationId: number | null): void {
    this.forgets += 1;
    if (organizationId === null) {
      this.entries.clear();
      this.answers.clear();
      return;
    }
    for (const [tokenKey, entry] of this.entries) {
      if (entry.principal.organizationId === organizationId) this.entries.delete(tokenKey);
    }
    for (const [answerKey, answer] of this.answers) {
      if (answer.organizationId === organizationId) this.answers.delete(answerKey);
    }
  }
}

/** The one PostgreSQL channel on which processes tell each other that access changed. */
export const accessChangesChannel = 'letterset_access_changes';
const everyOrganization = '*';

/**
 * Tells every server process sharing the database that who may do what changed in an
 * organization, through PostgreSQL NOTIFY, so that each forgets the principals it remembers for
 * that organization. The process making the change forgets them before it answers, and the others
 * are sent the NOTIFY before the answer leaves. With PGlite there is one process, and the same
 * path runs in-process.
 */
export class AccessChanges {
  private readonly cache: PrincipalCache;
  private readonly database: DatabaseHandle;
  private readonly log: FastifyBaseLogger;
  private subscription: ChannelSubscription | null = null;

  constructor(options: { cache: PrincipalCache; database: DatabaseHandle; log: FastifyBaseLogger }) {
    this.cache = options.cache;
    this.database = options.database;
    this.log = options.log;
  }

  /** Whether changes made by other processes are heard now; the cache's time-to-live covers the rest. */
  get listening(): boolean {
    return this.subscription?.listening ?? false;
  }

  async listen(): Promise<void> {
    this.subscription = await listenOnChannel(this.database, {
      channel: accessChangesChannel,
      log: this.log,
      onNotification: (payload) => this.cache.forget(parseOrganization(payload)),
      // Changes announced while the connection was down were missed: forget everything.
      onListening: () => this.cache.forget(null),
    });
  }

  /** Forgets here at once, then tells every process (this one included, which costs nothing). */
  async publish(organizationId: number | null): Promise<void> {
    this.cache.forget(organizationId);
    const payload = organizationId === null ? everyOrganization : String(organizationId);
    await this.database.db.execute(sql`select pg_notify(${accessChangesChannel}, ${payload})`);
  }

  async close(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
  }
}

function parseOrganization(payload: string): number | null {
  const id = Number(payload);
  // Anything but an organization id (a stray NOTIFY on the channel) forgets everything: the safe side.
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * Routes whose successful writes change who may do what, or what `GET /me` answers (a team's
 * members are in it). Matched on the route pattern, so
 * `/api/v1/workspaces/:workspace_id/emails` (content) is not one, but its `users` are.
 */
export function changesAccess(routeUrl: string): boolean {
  return (
    /^\/api\/v1\/(roles|users|teams|api_keys|mcp_apps|session|me|invitations|setup)(\/|$)/.test(routeUrl) ||
    routeUrl === '/api/v1/workspaces' ||
    routeUrl === '/api/v1/workspaces/:id' ||
    routeUrl.startsWith('/api/v1/workspaces/:workspace_id/users')
  );
}
