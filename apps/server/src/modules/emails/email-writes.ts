import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { emails, emailVersions } from '../../db/schema.ts';
import { announceEmailEvent, contentChangedAnnouncement } from './email-events.ts';
import { sessionGap } from './email-history-sessions.ts';
import { recordVersion } from './email-version-records.ts';
import type { EmailRow } from './emails.serializers.ts';

/** What an email change writes: its columns, and whether it moves lock_version. */
export interface WrittenChange {
  id: number;
  columns: Partial<EmailRow>;
  bumpsLockVersion: boolean;
  basedOnLockVersion: number | undefined;
}

export interface SavedChange {
  lockVersion: number;
  updatedAt: Date;
  /** Whether the save replaced the version of an open editing session instead of adding one. */
  continuedEditingSession: boolean;
}

function emailUpdate(db: Database, change: WrittenChange, extra: Partial<Record<keyof EmailRow, unknown>>) {
  return db
    .update(emails)
    .set({
      ...change.columns,
      ...extra,
      lockVersion: change.bumpsLockVersion ? sql`${emails.lockVersion} + 1` : undefined,
    } as Partial<EmailRow>)
    .where(
      and(
        eq(emails.id, change.id),
        change.basedOnLockVersion !== undefined
          ? eq(emails.lockVersion, change.basedOnLockVersion)
          : undefined,
      ),
    );
}

/**
 * Saves an edit of the content in one statement: the email, its version and the announcement.
 * Saves by one person with nothing else written in between, each within `sessionGap` of the last,
 * form an editing session, whose one version each save replaces (with a new version_id) instead of
 * adding one: an autosave every second writes one version per session, not one per second. The
 * history groups versions into the same sessions, so it tells the same story. Whether the session
 * continues is decided on the locked row itself, so concurrent writers cannot both continue it:
 * any other write of the email (a rename, a status change, an AI write, a restore) moves
 * `updated_at` away from `open_version_saved_at`, and the next save starts a new version.
 */
export async function saveInEditingSession(
  db: Database,
  change: WrittenChange,
  userId: number,
  openVersionBefore: number | null,
): Promise<SavedChange | null> {
  const savedAt = new Date();
  const sessionStart = new Date(savedAt.getTime() - sessionGap);
  const continues = sql`${emails.openVersionId} is not null
    and ${emails.openVersionSavedAt} = ${emails.updatedAt}
    and ${emails.lastUpdatedById} = ${userId}
    and ${emails.updatedAt} >= ${sessionStart.toISOString()}::timestamptz`;
  const update = emailUpdate(db, change, {
    openVersionId: sql`case when ${continues} then ${emails.openVersionId}
      else nextval(pg_get_serial_sequence('email_versions', 'id')) end`,
    openVersionSavedAt: savedAt,
    updatedAt: savedAt,
  }).returning({
    id: emails.id,
    lockVersion: emails.lockVersion,
    openVersionId: emails.openVersionId,
    content: emails.content,
    locales: emails.locales,
  });
  // Both drivers (node-postgres, PGlite) answer a statement with its rows under `rows`.
  const { rows } = (await db.execute(sql`
    with updated as (${update.getSQL()}),
    version as (
      insert into ${emailVersions} (id, email_id, version_id, email_data, last_updated_by_id, created_at)
      select open_version_id, id, ${randomUUID()},
        jsonb_build_object('email_content', content, 'locales', locales), ${userId}, ${savedAt.toISOString()}::timestamptz
      from updated
      on conflict (id) do update set version_id = excluded.version_id, email_data = excluded.email_data,
        save_count = ${emailVersions}.save_count + 1,
        first_saved_at = coalesce(${emailVersions}.first_saved_at, ${emailVersions}.created_at),
        created_at = excluded.created_at
    )
    select updated.lock_version, updated.open_version_id,
      ${contentChangedAnnouncement(sql`updated.id`, sql`updated.lock_version`)}
    from updated`)) as unknown as { rows: { lock_version: number; open_version_id: string | number }[] };
  const [row] = rows;
  if (!row) return null;
  return {
    lockVersion: row.lock_version,
    updatedAt: savedAt,
    continuedEditingSession: Number(row.open_version_id) === openVersionBefore,
  };
}
/** Any other change: a restore records a version of its own, a change of names or profiles none. */
export async function writeEmailChange(
  db: Database,
  change: WrittenChange,
  version: { author: { userId: number }; contentChanged: boolean; restoredFromVersionId: string | null },
): Promise<SavedChange | null> {
  return db.transaction(async (tx) => {
    const [row] = await emailUpdate(tx, change, {}).returning();
    if (!row) return null;
    if (version.contentChanged) {
      await recordVersion(tx, row, version.author, null, version.restoredFromVersionId);
    }
    await announceEmailEvent(tx, {
      type: 'content_changed',
      email_id: row.id,
      lock_version: row.lockVersion,
    });
    return { lockVersion: row.lockVersion, updatedAt: row.updatedAt, continuedEditingSession: false };
  });
}

/** Ends the open editing session if it saves into `versionId`, leaving the email as it was otherwise. */
export async function endEditingSessionAt(db: Database, emailId: number, versionId: string): Promise<void> {
  await db
    .update(emails)
    .set({ openVersionId: null, updatedAt: sql`${emails.updatedAt}` })
    .where(
      and(
        eq(emails.id, emailId),
        eq(
          emails.openVersionId,
          db
            .select({ id: emailVersions.id })
            .from(emailVersions)
            .where(and(eq(emailVersions.emailId, emailId), eq(emailVersions.versionId, versionId))),
        ),
      ),
    );
}
