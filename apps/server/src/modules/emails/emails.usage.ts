import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import type { App } from '../../app.ts';
import { escapeLikePattern } from '../../db/like.ts';
import { emails } from '../../db/schema.ts';

/** Names of the workspace's emails whose content contains a text, for "used by" refusals. */
export async function emailsMentioning(
  app: App,
  workspaceId: number,
  text: string,
  limit = 6,
): Promise<string[]> {
  const rows = await app.database.db
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
