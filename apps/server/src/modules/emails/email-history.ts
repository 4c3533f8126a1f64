import { type ChangeLabels, describeChanges, type EmailContent, type FieldDefinition } from '@letterset/core';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Static } from 'typebox';
import { emailVersions, users } from '../../db/schema.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { designSystemComponents } from '../renders/renders.service.ts';
import { toUserReference } from '../users/users.serializers.ts';
import { firstSaveOf, groupIntoSessions, type VersionHeader } from './email-history-sessions.ts';
import { type EmailVersionRow, toEmailVersion } from './email-versions.ts';
import { findVisibleEmail } from './email-visibility.ts';
import type { EmailHistoryEntry } from './emails.schemas.ts';
import { type Editor, editorColumns } from './emails.serializers.ts';

/**
 * The email's history as people tell it, newest first: editing sessions, AI writes and restores
 * (see groupIntoSessions), each with what changed in words since the version before it. Only the
 * page's entries load their content: the grouping reads the versions' headers alone.
 */
export async function listEmailHistory(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  page: PageRequest,
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const db = services.database.db;
  const headers: VersionHeader[] = await db
    .select({
      id: emailVersions.id,
      versionId: emailVersions.versionId,
      lastUpdatedById: emailVersions.lastUpdatedById,
      aiFeature: emailVersions.aiFeature,
      name: emailVersions.name,
      restoredFromVersionId: emailVersions.restoredFromVersionId,
      saveCount: emailVersions.saveCount,
      firstSavedAt: emailVersions.firstSavedAt,
      createdAt: emailVersions.createdAt,
    })
    .from(emailVersions)
    .where(eq(emailVersions.emailId, id))
    .orderBy(asc(emailVersions.id));
  const sessions = groupIntoSessions(headers).reverse();
  const shown = sessions.slice(page.offset, page.offset + page.limit);
  if (shown.length === 0) return listBody([], sessions.length, page);

  const positionOf = new Map(headers.map((header, index) => [header.id, index]));
  const before = (session: (typeof shown)[number]) => {
    const first = session.versions[0] as VersionHeader;
    return headers[(positionOf.get(first.id) as number) - 1];
  };
  const neededIds = shown.flatMap((session) => {
    const last = session.versions.at(-1) as VersionHeader;
    const previous = before(session);
    return previous ? [last.id, previous.id] : [last.id];
  });
  const [rows, { definitions }] = await Promise.all([
    db
      .select({ version: emailVersions, editor: editorColumns })
      .from(emailVersions)
      .leftJoin(users, eq(users.id, emailVersions.lastUpdatedById))
      .where(inArray(emailVersions.id, neededIds)),
    designSystemComponents(services, email.emailDesignSystemId),
  ]);
  const loaded = new Map(rows.map((row) => [row.version.id, row]));
  const labels = changeLabels(definitions);
  const byVersionId = new Map(headers.map((header) => [header.versionId, header]));

  const results: Static<typeof EmailHistoryEntry>[] = shown.map((session) => {
    const first = session.versions[0] as VersionHeader;
    const lastHeader = session.versions.at(-1) as VersionHeader;
    const { version: last, editor } = loaded.get(lastHeader.id) as {
      version: EmailVersionRow;
      editor: Editor;
    };
    const previous = before(session);
    const previousRow = previous ? loaded.get(previous.id)?.version : undefined;
    const described = describeChanges(previousRow ? snapshotOf(previousRow) : null, snapshotOf(last), labels);
    const restored = last.restoredFromVersionId ? byVersionId.get(last.restoredFromVersionId) : undefined;
    return {
      kind: session.kind,
      version: toEmailVersion(last, editor),
      first_version_id: first.versionId,
      started_at: firstSaveOf(first),
      ended_at: last.createdAt,
      saves: session.versions.reduce((saves, version) => saves + version.saveCount, 0),
      last_updated_by: editor ? toUserReference(editor) : null,
      name: last.name,
      changes: described.summary,
      change_count: described.phrases.length,
      restored_from: last.restoredFromVersionId
        ? {
            version_id: last.restoredFromVersionId,
            created_at: restored?.createdAt ?? null,
            name: restored?.name ?? null,
          }
        : null,
    };
  });
  return listBody(results, sessions.length, page);
}

function snapshotOf(version: EmailVersionRow) {
  return {
    content: version.emailData.email_content as unknown as EmailContent,
    locales: version.emailData.locales,
  };
}

/** The design system's labels for components and their fields (an instance of a deleted component has none). */
function changeLabels(
  definitions: { id: number; label: string; field_definitions: FieldDefinition[] }[],
): ChangeLabels {
  const byId = new Map(definitions.map((definition) => [definition.id, definition]));
  return {
    componentLabel: (componentId) => byId.get(componentId)?.label,
    fieldLabel: (componentId, variable) =>
      byId.get(componentId)?.field_definitions.find((field) => field.liquid_variable === variable)?.label,
  };
}
