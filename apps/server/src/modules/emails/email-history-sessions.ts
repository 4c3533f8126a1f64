/** What grouping needs of a version: who wrote it, when, and how. */
export interface VersionHeader {
  id: number;
  versionId: string;
  lastUpdatedById: number | null;
  aiFeature: string | null;
  name: string | null;
  restoredFromVersionId: string | null;
  /** Saves of an editing session replace its version: how many it holds, and when the first was. */
  saveCount: number;
  firstSavedAt: Date | null;
  /** When it was saved (its last save). */
  createdAt: Date;
}

/** When a version's first save was. */
export function firstSaveOf(version: VersionHeader): Date {
  return version.firstSavedAt ?? version.createdAt;
}

export type HistoryEntryKind = 'created' | 'editing_session' | 'ai_feature' | 'restore';

/** Consecutive versions told as one entry of the history, oldest first. */
export interface VersionSession<T extends VersionHeader = VersionHeader> {
  kind: HistoryEntryKind;
  versions: T[];
}

/** Saves further apart than this start a new editing session. */
export const sessionGap = 30 * 60 * 1000;

/**
 * Groups an email's versions (oldest first) into the entries of its history: consecutive saves
 * by one person with no gap over 30 minutes form an editing session; the first version (the email
 * as created, the point people go back to), a version an AI feature wrote, and a restore are
 * entries of their own; a named version ends the session it is in (the name marks that point). Grouping happens when reading: reviews, approvals and exports refer to
 * exact versions, so the versions themselves stay as they were saved.
 */
export function groupIntoSessions<T extends VersionHeader>(versions: readonly T[]): VersionSession<T>[] {
  const sessions: VersionSession<T>[] = [];
  let open: VersionSession<T> | null = null;
  for (const [index, version] of versions.entries()) {
    const kind = index === 0 ? 'created' : kindOf(version);
    const last = open?.versions.at(-1);
    const continues =
      open !== null &&
      last !== undefined &&
      kind === 'editing_session' &&
      last.lastUpdatedById === version.lastUpdatedById &&
      firstSaveOf(version).getTime() - last.createdAt.getTime() <= sessionGap;
    if (open && continues) {
      open.versions.push(version);
    } else {
      open = { kind, versions: [version] };
      sessions.push(open);
    }
    if (kind !== 'editing_session' || version.name !== null) open = null;
  }
  return sessions;
}

function kindOf(version: VersionHeader): HistoryEntryKind {
  if (version.aiFeature !== null) return 'ai_feature';
  if (version.restoredFromVersionId !== null) return 'restore';
  return 'editing_session';
}
