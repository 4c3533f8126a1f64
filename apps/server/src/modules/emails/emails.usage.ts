import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import { escapeLikePattern } from '../../db/like.ts';
import { emails } from '../../db/schema.ts';
import type { Services } from '../../services.ts';

/** Names of the workspace's emails whose content contains a text, for "used by" refusals. */
export async function emailsMentioning(
  services: Services,
  workspaceId: number,
  text: string,
  limit = 6,
): Promise<string[]> {
  const rows = await services.database.db
    .select({ name: emails.name })
    .from(emails)
    .where(
      and(
        eq(emails.workspaceId, workspaceId),
        ilike(sql`${emails.content}::text`, `%${escapeLikePattern(text)}%`),
      ),
    )
    .orderBy(asc(emails.name))
    .limit(limit);
  return rows.map((row) => row.name);
}
