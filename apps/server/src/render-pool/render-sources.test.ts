import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailDesignSystems } from '../db/schema.ts';
import { createTestOrganization } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { type DesignSystemSource, RenderSources } from './render-sources.ts';

describe('RenderSources', () => {
  let app: TestApp;
  let sources: RenderSources;
  let systemId: number;
  let workspaceId: number;
  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    workspaceId = organization.workspaceId;
    const [row] = await app.services.database.db
      .select({ id: emailDesignSystems.id })
      .from(emailDesignSystems)
      .where(eq(emailDesignSystems.workspaceId, workspaceId));
    systemId = Number(row?.id);
    sources = new RenderSources({ database: app.services.database, log: app.log });
    await sources.listen();
  });
  afterAll(async () => {
    await sources.close();
    await app.close();
  });

  /** A loader that counts its calls and answers what `next` gives. */
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
  /** What a render does: read the versions (PostgreSQL), then ask. */
  const designSystem = async (id: number, load: () => Promise<DesignSystemSource>) =>
    sources.designSystem(id, await sources.versions(id, workspaceId), load);

  it('keeps a value, shares one load among requests, and reloads after any change to the system', async () => {
    const loader = counting();
    const [first, second] = await Promise.all([
      designSystem(systemId, loader.load),
      designSystem(systemId, loader.load),
    ]);
    expect(first).toBe(second);
    expect(loader.calls).toBe(1);
    await designSystem(systemId, loader.load);
    expect(loader.calls).toBe(1);

    // Written behind the API's back: the database counts and announces the change itself.
    await app.services.database.db.execute(
      sql`update components set label = label || '!' where email_design_system_id = ${systemId}`,
    );
    await designSystem(systemId, loader.load);
    expect(loader.calls).toBe(2);
    await app.services.database.db.execute(
      sql`update email_design_systems set name = name || '!' where id = ${systemId}`,
    );
    await designSystem(systemId, loader.load);
    expect(loader.calls).toBe(3);
  });

  it('keeps a workspace’s dynamic content until that workspace’s changes', async () => {
    const loader = counting();
    const dynamicContent = async () =>
      sources.workspaceDynamicContent(
        workspaceId,
        'null null',
        await sources.versions(systemId, workspaceId),
        loader.load as never,
      );
    await dynamicContent();
    await dynamicContent();
    expect(loader.calls).toBe(1);
    await app.services.database.db.execute(
      sql`update components set label = label || '?' where email_design_system_id = ${systemId}`,
    );
    await dynamicContent();
    expect(loader.calls).toBe(1);
    await app.services.database.db.execute(
      sql`insert into personalization_tags (organization_id, workspace_id, label, default_value, example_value, profile_values)
          select organization_id, id, 'Tag', 'x', 'y', '{}' from workspaces where id = ${workspaceId}`,
    );
    await dynamicContent();
    expect(loader.calls).toBe(2);
  });

  it('does not keep a load that failed', async () => {
    const failing = counting();
    failing.next = () => Promise.reject(new Error('no such system'));
    await expect(designSystem(4343, failing.load)).rejects.toThrow('no such system');
    await expect(designSystem(4343, failing.load)).rejects.toThrow('no such system');
    expect(failing.calls).toBe(2);
  });

  describe.runIf(process.env.TEST_DATABASE_URL === undefined)('with PGlite (one process)', () => {
    it('does not keep a load that a change overtook', async () => {
      const loader = counting();
      let finish: (value: DesignSystemSource) => void = () => {};
      loader.next = () => new Promise((resolve) => (finish = resolve));
      const overtaken = sources.designSystem(4242, null, loader.load);
      sources.forget('email_design_system:9999');
      finish({} as DesignSystemSource);
      await overtaken;
      loader.next = () => Promise.resolve({} as DesignSystemSource);
      await designSystem(4242, loader.load);
      expect(loader.calls).toBe(2);
    });

    it('keeps nothing while it does not hear the channel', async () => {
      await sources.close();
      const loader = counting();
      await designSystem(systemId, loader.load);
      await designSystem(systemId, loader.load);
      expect(loader.calls).toBe(2);
      await sources.listen();
    });
  });
});
