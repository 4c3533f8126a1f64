import { dynamicContentProfiles } from '../../db/schema.ts';
import { allWorkspaceRecords, findWorkspaceRecord } from '../../db/workspace-records.ts';
import type { Services } from '../../services.ts';

/**
 * Looking up a workspace's dynamic content profiles. Conditionals and personalization tags keep
 * values per profile and check them against these; the profiles' service combines conditionals
 * and tags for a render. Both import this file, so neither imports the other's service.
 */
export type DynamicContentProfileRow = typeof dynamicContentProfiles.$inferSelect;

export const findDynamicContentProfile = (
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: string,
) => findWorkspaceRecord(services, dynamicContentProfiles, workspaceId, id);

/** The workspace's profiles by id (to check the per-profile values of conditionals and tags). */
export async function workspaceProfiles(
  services: Pick<Services, 'database'>,
  workspaceId: number,
): Promise<Map<string, DynamicContentProfileRow>> {
  const rows = await allWorkspaceRecords(services, dynamicContentProfiles, workspaceId);
  return new Map(rows.map((row) => [row.id, row]));
}
