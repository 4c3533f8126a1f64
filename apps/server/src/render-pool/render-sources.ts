import {
  type BrandProfileDefinition,
  type ComponentDefinition,
  type DesignSystemDefinition,
  type DynamicContentInput,
  LruCache,
} from '@letterset/core';
import { and, eq, or } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type ChannelSubscription, listenOnChannel } from '../db/channel-listener.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { type components, type emailDesignSystems, renderSourceVersions } from '../db/schema.ts';

/** A design system as renders use it: the row, its components and brand profiles. */
export interface DesignSystemSource {
  row: typeof emailDesignSystems.$inferSelect;
  definition: DesignSystemDefinition;
  componentRows: (typeof components.$inferSelect)[];
  components: ComponentDefinition[];
  brandProfiles: ReadonlyMap<number, BrandProfileDefinition>;
  /**
   * Names this load of the system in the render pool, whose workers keep it under this key: every
   * load gets a new one, so a changed system (which is loaded again) is never rendered from a stale copy.
   */
  renderKey: string;
}

/** A kept value and the version of its source it was read at (null with PGlite). */
interface Kept<T> {
  version: number | null;
  value: Promise<T>;
}

/** The change counts of a render's design system and workspace (`render_source_versions`). */
export interface SourceVersions {
  designSystem: number;
  workspace: number;
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
 * costs at most one small query. Database triggers (migration 0011) count every change to those
 * tables per design system and per workspace, whichever code made it, and announce it when it
 * commits.
 *
 * With PostgreSQL, several processes may share the database: a render first reads the two counts
 * (`versions`, one indexed query) and uses what is kept only if it was read at the same counts, so
 * a change committed by any process shows in the very next render. With PGlite there is one
 * process, and the announcement is heard before the writing query returns: what it names is
 * dropped, and nothing is kept while the channel is not heard. Either way a load that a change
 * overtook is used for the requests under way only.
 */
export class RenderSources {
  private readonly designSystems = new LruCache<number, Kept<DesignSystemSource>>(500);
  /** By workspace id, then by the options the dynamic content was loaded for. */
  private readonly dynamicContent = new LruCache<number, Map<string, Kept<DynamicContentInput>>>(2000);
  private readonly database: DatabaseHandle;
  private readonly log: FastifyBaseLogger;
  private subscription: ChannelSubscription | null = null;
  /** Counts announcements heard: a load under way when one arrives is not kept. */
  private changes = 0;

  constructor(options: { database: DatabaseHandle; log: FastifyBaseLogger }) {
    this.database = options.database;
    this.log = options.log;
  }

  /** PGlite only: whether announcements are heard (PostgreSQL checks versions instead). */
  get listening(): boolean {
    return this.subscription?.listening ?? false;
  }

  async listen(): Promise<void> {
    if (this.database.driver !== 'pglite') return;
    this.subscription = await listenOnChannel(this.database, {
      channel: renderSourcesChannel,
      log: this.log,
      onNotification: (payload) => this.forget(payload),
      onListening: () => this.forget('*'),
    });
  }

  async close(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
  }

  /** The counts to check kept values against: PostgreSQL only (null with PGlite). */
  async versions(designSystemId: number, workspaceId: number): Promise<SourceVersions | null> {
    if (this.database.driver === 'pglite') return null;
    const rows = await this.database.db
      .select()
      .from(renderSourceVersions)
      .where(
        or(
          and(
            eq(renderSourceVersions.scope, 'email_design_system'),
            eq(renderSourceVersions.key, designSystemId),
          ),
          and(eq(renderSourceVersions.scope, 'workspace'), eq(renderSourceVersions.key, workspaceId)),
        ),
      );
    const versionOf = (scope: string) => rows.find((row) => row.scope === scope)?.version ?? 0;
    return { designSystem: versionOf('email_design_system'), workspace: versionOf('workspace') };
  }

  /** A design system's source, kept or loaded by `load` (which throws for a system that is not there). */
  designSystem(
    id: number,
    versions: SourceVersions | null,
    load: () => Promise<DesignSystemSource>,
  ): Promise<DesignSystemSource> {
    return this.keptOrLoaded(load, versions?.designSystem ?? null, {
      get: () => this.designSystems.get(id),
      set: (kept) => this.designSystems.set(id, kept),
      delete: () => this.designSystems.delete(id),
    });
  }

  /** A workspace's dynamic content for `options` (a key of what it was loaded for), kept or loaded. */
  workspaceDynamicContent(
    workspaceId: number,
    options: string,
    versions: SourceVersions | null,
    load: () => Promise<DynamicContentInput>,
  ): Promise<DynamicContentInput> {
    return this.keptOrLoaded(load, versions?.workspace ?? null, {
      get: () => this.dynamicContent.get(workspaceId)?.get(options),
      set: (kept) => {
        const entries = this.dynamicContent.get(workspaceId) ?? new Map();
        entries.set(options, kept);
        this.dynamicContent.set(workspaceId, entries);
      },
      delete: () => this.dynamicContent.get(workspaceId)?.delete(options),
    });
  }

  /**
   * The kept value when it is current, else `load()`'s, kept at once so that requests arriving
   * while it runs share it. Dropped if it fails. With PGlite it is also dropped if an announcement
   * came before it finished (it may have read the old state); with PostgreSQL the version it is
   * kept at was read before it started, so a later change makes it outdated anyway.
   */
  private keptOrLoaded<T>(
    load: () => Promise<T>,
    version: number | null,
    slot: { get(): Kept<T> | undefined; set(kept: Kept<T>): void; delete(): void },
  ): Promise<T> {
    if (version === null && !this.listening) return load();
    const kept = slot.get();
    if (kept && kept.version === version) return kept.value;
    const changesBefore = this.changes;
    const entry = { version, value: load() };
    slot.set(entry);
    const drop = () => {
      if (slot.get() === entry) slot.delete();
    };
    entry.value.then(() => {
      if (version === null && this.changes !== changesBefore) drop();
    }, drop);
    return entry.value;
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

/** Creates the process's `RenderSources`, listening from start-up to close. */
export function registerRenderSources(app: FastifyInstance): void {
  const renderSources = app.services.renderSources;
  app.addHook('onReady', () => renderSources.listen());
  app.addHook('onClose', () => renderSources.close());
}
