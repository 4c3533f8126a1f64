import type { SQL } from 'drizzle-orm';
import type { PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

/**
 * The fields of a partial update (a PATCH) that were sent. A service maps each field the request
 * left out to `undefined`; those keep their value.
 */
export function sentChanges<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Whether a partial update sends any field at all (`{}` sends none). */
export function changesAnything(changes: object): boolean {
  return Object.values(changes).some((value) => value !== undefined);
}

/**
 * Writes the sent `changes` to the rows `where` selects and returns them as written, with
 * `whenChanged` (a version bump, who wrote last) added to a write that changes something.
 * An update that sends nothing (a PATCH of `{}`) writes nothing, so neither `updated_at` nor a
 * version moves, and returns the rows as they are. (Drizzle refuses an empty SET with "No values
 * to set": every update service goes through here so that `{}` is never a 500.)
 */
export async function updateReturning<T extends PgTable>(
  db: Database,
  table: T,
  where: SQL | undefined,
  changes: PgUpdateSetSource<T>,
  whenChanged: PgUpdateSetSource<T> = {},
): Promise<T['$inferSelect'][]> {
  const sent = sentChanges(changes);
  if (!changesAnything(sent)) {
    const rows = await db
      .select()
      .from(table as PgTable)
      .where(where);
    return rows as T['$inferSelect'][];
  }
  const rows = await db
    .update(table)
    .set({ ...sent, ...whenChanged } as PgUpdateSetSource<T>)
    .where(where)
    .returning();
  return rows as T['$inferSelect'][];
}
