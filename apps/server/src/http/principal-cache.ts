import type { Principal } from './access.ts';

interface Entry {
  principal: Principal;
  /** Workspaces this principal was let into, by id: access checks are per request otherwise. */
  workspaces: Map<number, { id: number; name: string }>;
  expiresAt: number;
}

/**
 * Who a session or API-key token stands for, remembered for a few seconds so that a request costs
 * one query for its data instead of three. Any write that changes who may do what (roles, users,
 * memberships, keys, sessions) clears it in this process at once; `ttlMs` bounds how long another
 * server process sharing the database may act on what it saw before such a write.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

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

  remember(tokenKey: string, principal: Principal): Entry {
    // Insertion order is age order: dropping the first entry drops the oldest.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const entry = { principal, workspaces: new Map(), expiresAt: this.now() + this.ttlMs };
    this.entries.set(tokenKey, entry);
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Routes whose successful writes change who may do what. Matched on the route pattern, so
 * `/api/v1/workspaces/:workspace_id/emails` (content) is not one, but its `users` are.
 */
export function changesAccess(routeUrl: string): boolean {
  return (
    /^\/api\/v1\/(roles|users|api_keys|session|me|invitations|setup)(\/|$)/.test(routeUrl) ||
    routeUrl === '/api/v1/workspaces' ||
    routeUrl === '/api/v1/workspaces/:id' ||
    routeUrl.startsWith('/api/v1/workspaces/:workspace_id/users')
  );
}
