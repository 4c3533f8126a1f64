import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { NotFoundError, ValidationError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Services } from '../services.ts';
import { emails } from './schema.ts';

/** A table of records that belong to one workspace (dynamic content, feeds). */
type WorkspaceTable = PgTable & { id: AnyPgColumn; workspaceId: AnyPgColumn; createdAt: AnyPgColumn };

/** One page of a workspace's records, newest first, and how many there are in all. */
export async function pageOfWorkspaceRecords<T extends WorkspaceTable>(
  services: Pick<Services, 'database'>,
  table: T,
  workspaceId: number,
  page: PageRequest,
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const where = eq(table.workspaceId, workspaceId);
  const db = services.database.db;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(desc(table.createdAt), desc(table.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ value: count() })
      .from(table as PgTable)
      .where(where),
  ]);
  return { rows: rows as T['$inferSelect'][], total: total?.value ?? 0 };
}

/** A record of the workspace by id; another workspace's (or organization's) id is a 404. */
export async function findWorkspaceRecord<T extends WorkspaceTable>(
  services: Pick<Services, 'database'>,
  table: T,
  workspaceId: number,
  id: number | string,
): Promise<T['$inferSelect']> {
  const [row] = await services.database.db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), eq(table.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError();
  return row as T['$inferSelect'];
}

/** Every record of a workspace, oldest first (what a render needs). */
export async function allWorkspaceRecords<T extends WorkspaceTable>(
  services: Pick<Services, 'database'>,
  table: T,
  workspaceId: number,
): Promise<T['$inferSelect'][]> {
  const rows = await services.database.db
    .select()
    .from(table as PgTable)
    .where(eq(table.workspaceId, workspaceId))
    .orderBy(asc(table.id));
  return rows as T['$inferSelect'][];
}

export interface EmailUsingRecord {
  id: number;
  name: string;
  content: Record<string, unknown>;
}

/** The workspace's emails matching a condition on their row (content, profile ids), by name. */
export async function workspaceEmailsWhere(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  condition: SQL,
): Promise<EmailUsingRecord[]> {
  return services.database.db
    .select({ id: emails.id, name: emails.name, content: emails.content })
    .from(emails)
    .where(and(eq(emails.workspaceId, workspaceId), condition))
    .orderBy(asc(emails.name), asc(emails.id));
}

/**
 * Deletes a record of the workspace unless emails use it (`usedBy` selects them): then a 422
 * names the emails, so nothing they hold is silently lost.
 */
export async function deleteWorkspaceRecordUnlessUsed<T extends WorkspaceTable>(
  services: Pick<Services, 'database'>,
  table: T,
  workspaceId: number,
  id: number,
  options: { describe(row: T['$inferSelect']): string; usedBy: SQL },
): Promise<void> {
  const row = await findWorkspaceRecord(services, table, workspaceId, id);
  const using = await workspaceEmailsWhere(services, workspaceId, options.usedBy);
  if (using.length > 0)
    throw usedByEmailsError(
      options.describe(row),
      'id',
      using.map((email) => email.name),
    );
  await services.database.db.delete(table as PgTable).where(eq(table.id, id));
}

/** The 422 for a change that would lose what emails use; it names the emails. */
export function usedByEmailsError(
  what: string,
  field: string,
  emailNames: readonly string[],
): ValidationError {
  const names = emailNames.map((name) => `“${name}”`).join(', ');
  return new ValidationError(
    { [field]: [`is used by emails: ${names}`] },
    `${what} is used by emails: ${names}`,
  );
}
