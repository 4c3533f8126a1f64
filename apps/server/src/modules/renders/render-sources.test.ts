import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { emailDesignSystems } from '../../db/schema.ts';
import { createTestOrganization } from '../../test/factories.ts';
import { buildTestApp } from '../../test/harness.ts';
import { changesRenderSources, type DesignSystemSource, RenderSources } from './render-sources.ts';

describe('RenderSources', () => {
  let app: App;
  let sources: RenderSources;
  let systemId: number;
  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    const [row] = await app.database.db
      .select({ id: emailDesignSystems.id })
      .from(emailDesignSystems)
      .where(eq(emailDesignSystems.workspaceId, organization.workspaceId));
    systemId = Number(row?.id);
    sources = new RenderSources({ database: app.database, log: app.log });
  });
  afterAll(async () => {
    await sources.close();
    await app.close();
  });

  /** A loader that counts its calls and answers what `next` says. */
  function counting() {
    const loader = {
      calls: 0,
      next: () => Promise.resolve({ row: { id: loader.calls } } as unknown as DesignSystemSource),
      load: () => {
        loader.calls += 1;
        return loader.next();
      },
    };
    return loader;
  }

  it('keeps nothing until it hears the channel', async () => {
    const loader = counting();
    await sources.designSystem(systemId, loader.load);
    await sources.designSystem(systemId, loader.load);
    expect(loader.calls).toBe(2);
  });

  it('keeps a value, shares one load among requests, and forgets on an announcement', async () => {
    await sources.listen();
    expect(sources.listening).toBe(true);
    const loader = counting();
    const [first, second] = await Promise.all([
      sources.designSystem(systemId, loader.load),
      sources.designSystem(systemId, loader.load),
    ]);
    expect(first).toBe(second);
    expect(loader.calls).toBe(1);
    await sources.designSystem(systemId, loader.load);
    expect(loader.calls).toBe(1);

    // The database announces the change itself (migration 0011's triggers), whoever writes.
    await app.database.db.execute(
      sql`update components set label = label || '!' where email_design_system_id = ${systemId}`,
    );
    await sources.designSystem(systemId, loader.load);
    expect(loader.calls).toBe(2);

    const otherWorkspace = counting();
    const dynamic = (load: () => Promise<unknown>) =>
      sources.workspaceDynamicContent(7, 'null null', load as never);
    await dynamic(otherWorkspace.load);
    await dynamic(otherWorkspace.load);
    expect(otherWorkspace.calls).toBe(1);
    sources.forget('workspace:8');
    await dynamic(otherWorkspace.load);
    expect(otherWorkspace.calls).toBe(1);
    sources.forget('workspace:7');
    await dynamic(otherWorkspace.load);
    expect(otherWorkspace.calls).toBe(2);
  });

  it('does not keep a load that a change overtook, nor one that failed', async () => {
    const loader = counting();
    let finish: (value: DesignSystemSource) => void = () => {};
    loader.next = () => new Promise((resolve) => (finish = resolve));
    const overtaken = sources.designSystem(4242, loader.load);
    sources.forget('email_design_system:9999');
    finish({} as DesignSystemSource);
    await overtaken;
    loader.next = () => Promise.resolve({} as DesignSystemSource);
    await sources.designSystem(4242, loader.load);
    expect(loader.calls).toBe(2);

    const failing = counting();
    failing.next = () => Promise.reject(new Error('no such system'));
    await expect(sources.designSystem(4343, failing.load)).rejects.toThrow('no such system');
    await expect(sources.designSystem(4343, failing.load)).rejects.toThrow('no such system');
    expect(failing.calls).toBe(2);
  });

  it('keeps nothing once it stops listening', async () => {
    await sources.close();
    const loader = counting();
    await sources.designSystem(systemId, loader.load);
    await sources.designSystem(systemId, loader.load);
    expect(loader.calls).toBe(2);
  });

  it('knows which routes change what renders read', () => {
    expect(changesRenderSources('/api/v1/workspaces/:workspace_id/email_design_systems/:id')).toBe(true);
    expect(
      changesRenderSources(
        '/api/v1/workspaces/:workspace_id/email_design_systems/:email_design_system_id/components/:id',
      ),
    ).toBe(true);
    expect(changesRenderSources('/api/v1/workspaces/:workspace_id/personalization_tags/:id')).toBe(true);
    expect(changesRenderSources('/api/v1/workspaces/:id')).toBe(true);
    expect(changesRenderSources('/api/v1/workspaces/:workspace_id/emails/:id')).toBe(false);
    expect(changesRenderSources('/api/v1/workspaces/:workspace_id/renders')).toBe(false);
  });
});
