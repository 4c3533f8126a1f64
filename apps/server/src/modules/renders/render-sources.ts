import {
  type BrandProfileDefinition,
  type ComponentDefinition,
  type DesignSystemDefinition,
  type DynamicContentInput,
  LruCache,
} from '@letterset/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type ChannelSubscription, listenOnChannel } from '../../db/channel-listener.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { components, emailDesignSystems } from '../../db/schema.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What renders read from the database, kept in this process (see `RenderSources`). */
    renderSources: RenderSources;
  }
}

/** A design system as renders use it: the row, its components and brand profiles. */
export interface DesignSystemSource {
  row: typeof emailDesignSystems.$inferSelect;
  definition: DesignSystemDefinition;
  componentRows: (typeof components.$inferSelect)[];
  components: ComponentDefinition[];
  brandProfiles: ReadonlyMap<number, BrandProfileDefinition>;
}

/**
 * The channel of migration 0011's triggers: `email_design_system:<id>` when a design system, one of
 * its components or brand profiles changes; `workspace:<id>` when the workspace's dynamic content
 * profiles, conditionals, personalization tags or link tracking profiles do.
 */
export const renderSourcesChannel = 'letterset_render_sources';

/**
 * What a render reads from the database besides the request itself (the design system, its
 * components and brand profiles, the workspace's dynamic content), kept in memory so that a render
 * costs no query for them. Every change to those tables, from whatever code and in whatever server
 * process, is announced by database triggers when it commits (`renderSourcesChannel`), and every
 * process drops what it kept of the changed system or workspace. With PGlite the announcement
 * arrives before the writing query returns. With PostgreSQL it reaches the processes as the
 * transaction commits, before the writer answers; the writing process also forgets at once (see
 * `registerRenderSources`). Nothing is kept while the channel is not heard (the cache is bypassed
 * until listening again, when everything is dropped), and a value read while a change was
 * announced is used for that request only.
 */
export class RenderSources {
  private readonly designSystems = new LruCache<number, Promise<DesignSystemSource>>(500);
  /** By workspace id, then by the options the dynamic content was loaded for. */
  private readonly dynamicContent = new LruCache<number, Map<string, Promise<DynamicContentInput>>>(2000);
  private readonly database: DatabaseHandle;
  private readonly log: FastifyBaseLogger;
  private subscription: ChannelSubscription | null = null;
  /** Counts announcements: a load under way when one arrives is not kept. */
  private changes = 0;

  constructor(options: { database: DatabaseHandle; log: FastifyBaseLogger }) {
    this.database = options.database;
    this.log = options.log;
  }

  get listening(): boolean {
    return this.subscription?.listening ?? false;
  }

  async listen(): Promise<void> {
    this.subscription = await listenOnChannel(this.database, {
      channel: renderSourcesChannel,
      log: this.log,
      onNotification: (payload) => this.forget(payload),
      // Changes announced while the connection was down were missed.
      onListening: () => this.forget('*'),
    });
  }

  async close(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
  }

  /** A design system's source, kept or loaded by `load` (which throws for a system that is not there). */
  designSystem(id: number, load: () => Promise<DesignSystemSource>): Promise<DesignSystemSource> {
    return this.keptOrLoaded(load, {
      get: () => this.designSystems.get(id),
      set: (value) => this.designSystems.set(id, value),
      delete: () => this.designSystems.delete(id),
    });
  }

  /** A workspace's dynamic content for `options` (a key of what it was loaded for), kept or loaded. */
  workspaceDynamicContent(
    workspaceId: number,
    options: string,
    load: () => Promise<DynamicContentInput>,
  ): Promise<DynamicContentInput> {
    return this.keptOrLoaded(load, {
      get: () => this.dynamicContent.get(workspaceId)?.get(options),
      set: (value) => {
        const entries = this.dynamicContent.get(workspaceId) ?? new Map();
        entries.set(options, value);
        this.dynamicContent.set(workspaceId, entries);
      },
      delete: () => this.dynamicContent.get(workspaceId)?.delete(options),
    });
  }

  /**
   * The kept value, else `load()`'s, kept at once as a promise so that requests arriving while it
   * runs share it. It is dropped if it fails, and if a change was announced before it finished (it
   * may have read the old state); the requests that shared it were under way before the change.
   */
  private keptOrLoaded<T>(
    load: () => Promise<T>,
    slot: { get(): Promise<T> | undefined; set(value: Promise<T>): void; delete(): void },
  ): Promise<T> {
    if (!this.listening) return load();
    const kept = slot.get();
    if (kept) return kept;
    const changesBefore = this.changes;
    const loading = load();
    slot.set(loading);
    const drop = () => {
      if (slot.get() === loading) slot.delete();
    };
    loading.then(() => {
      if (this.changes !== changesBefore) drop();
    }, drop);
    return loading;
  }

  /** Drops what an announcement names; anything else (`*`, a stray payload) drops everything. */
  forget(payload: string): void {
    this.changes += 1;
    const [scope, rawId] = payload.split(':');
    const id = Number(rawId);
    if (scope === 'email_design_system' && Number.isSafeInteger(id)) this.designSystems.delete(id);
    else if (scope === 'workspace' && Number.isSafeInteger(id)) this.dynamicContent.delete(id);
    else {
      this.designSystems.clear();
      this.dynamicContent.clear();
    }
  }
}

/**
 * Routes whose successful writes change what renders read: design systems (with their components
 * and brand profiles), dynamic content, and workspaces (deleting one deletes its systems).
 */
export function changesRenderSources(routeUrl: string): boolean {
  return (
    /^\/api\/v1\/workspaces\/:workspace_id\/(email_design_systems|dynamic_content_profiles|conditionals|personalization_tags|link_tracking_profiles)(\/|$)/.test(
      routeUrl,
    ) || routeUrl === '/api/v1/workspaces/:id'
  );
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Creates the process's `RenderSources`, listening from start-up to close. */
export function registerRenderSources(app: FastifyInstance): void {
  const renderSources = new RenderSources({ database: app.database, log: app.log });
  app.decorate('renderSources', renderSources);
  app.addHook('onReady', () => renderSources.listen());
  app.addHook('onClose', () => renderSources.close());
  // On PostgreSQL this process hears its own announcements a moment after they commit: a write
  // answered by this process is forgotten here before the answer leaves.
  app.addHook('onSend', async (request, reply, payload) => {
    if (
      unsafeMethods.has(request.method) &&
      reply.statusCode < 400 &&
      changesRenderSources(request.routeOptions.url ?? '')
    ) {
      renderSources.forget('*');
    }
    return payload;
  });
}
