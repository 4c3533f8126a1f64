import { randomUUID } from 'node:crypto';
import { starterLayoutContent, starterLayoutLocale, starterLayouts } from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { components, layouts } from '../../db/schema.ts';

/**
 * Saves the Letterset Starter's layouts (newsletter, promotion, ...) in a workspace, for the starter
 * design system just installed there, so "New email" offers them from the first day. Runs in the
 * caller's transaction, with the design system's components already written.
 */
export async function insertStarterLayouts(
  db: Database,
  owner: { organizationId: number; workspaceId: number; emailDesignSystemId: number },
): Promise<void> {
  const systemComponents = await db
    .select({ id: components.id, name: components.name, container: components.container })
    .from(components)
    .where(eq(components.emailDesignSystemId, owner.emailDesignSystemId));
  const container = systemComponents.find((component) => component.container);
  if (!container) throw new Error('the starter design system has no container component');
  const idsByName = new Map(
    systemComponents
      .filter((component) => !component.container)
      .map((component) => [component.name, component.id]),
  );
  await db.insert(layouts).values(
    starterLayouts().map((layout) => ({
      organizationId: owner.organizationId,
      workspaceId: owner.workspaceId,
      emailDesignSystemId: owner.emailDesignSystemId,
      name: layout.name,
      content: starterLayoutContent(layout, {
        containerComponentId: container.id,
        componentIdOf: (name) => idsByName.get(name),
        newInstanceId: randomUUID,
      }) as unknown as Record<string, unknown>,
      locales: [starterLayoutLocale],
    })),
  );
}
