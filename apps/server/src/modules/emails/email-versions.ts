import type { EmailContent } from '@letterset/core';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { emailVersions, users } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { recordAuditEntry } from '../audit-logs/audit-logs.service.ts';
import { toUserReference } from '../users/users.serializers.ts';
import { changeEmail } from './email-changes.ts';
import { findVisibleEmail } from './email-visibility.ts';
import { endEditingSessionAt } from './email-writes.ts';
import { type EmailVersion, versionNameLength } from './emails.schemas.ts';
import { type Editor, editorColumns } from './emails.serializers.ts';

export type EmailVersionRow = typeof emailVersions.$inferSelect;

export function toEmailVersion(version: EmailVersionRow, editor: Editor): Static<typeof EmailVersion> {
  return {
    version_id: version.versionId,
    email_data: version.emailData as Static<typeof EmailVersion>['email_data'],
    created_at: version.createdAt,
    last_updated_by: editor ? toUserReference(editor) : null,
    ai_feature: version.aiFeature,
    name: version.name,
    restored_from_version_id: version.restoredFromVersionId,
  };
}

export async function listEmailVersions(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  page: PageRequest,
) {
  await findVisibleEmail(services, principal, workspaceId, id);
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select({ version: emailVersions, editor: editorColumns })
      .from(emailVersions)
      .leftJoin(users, eq(users.id, emailVersions.lastUpdatedById))
      .where(eq(emailVersions.emailId, id))
      .orderBy(desc(emailVersions.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(emailVersions).where(eq(emailVersions.emailId, id)),
  ]);
  const results = rows.map(({ version, editor }) => toEmailVersion(version, editor));
  return listBody(results, total?.value ?? 0, page);
}

/** Makes an earlier version current again, as a new version: history only ever grows. */
export async function restoreEmailVersion(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  versionId: string,
) {
  const found = await findVisibleEmail(services, principal, workspaceId, id);
  const [version] = await services.database.db
    .select()
    .from(emailVersions)
    .where(and(eq(emailVersions.emailId, id), eq(emailVersions.versionId, versionId)));
  if (!version) throw new NotFoundError('No such version of this email');
  const locales = version.emailData.locales;
  const restored = await changeEmail(
    services,
    principal,
    workspaceId,
    found,
    {
      content: version.emailData.email_content as unknown as EmailContent,
      locales,
      defaultLocale: locales.includes(found.email.defaultLocale) ? found.email.defaultLocale : locales[0],
      restoredFromVersionId: version.versionId,
    },
    undefined,
  );
  return restored.email;
}

/** The name a request gives a version, trimmed; null clears it. */
function checkedVersionName(name: string | null): string | null {
  if (name === null) return null;
  const trimmed = name.trim();
  if (trimmed.length === 0)
    throw ValidationError.field('name', "can't be blank (send null to clear the name)");
  if (trimmed.length > versionNameLength) {
    throw ValidationError.field('name', `is too long (at most ${versionNameLength} characters)`);
  }
  return trimmed;
}

/**
 * Names a version ("Sent to legal") or clears its name. Only the name changes: the content stays
 * as saved, so reviews, approvals and exports that refer to this version keep meaning the same.
 */
export async function nameEmailVersion(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  versionId: string,
  requestedName: string | null,
  request: { path: string; id: string },
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const name = checkedVersionName(requestedName);
  return services.database.db.transaction(async (tx) => {
    // A named version is a point people come back to: the next save starts a version of its own.
    // The email is written first, as saves write it, so the two never wait on each other's locks.
    await endEditingSessionAt(tx, email.id, versionId);
    const [previous] = await tx
      .select({ name: emailVersions.name })
      .from(emailVersions)
      .where(and(eq(emailVersions.emailId, email.id), eq(emailVersions.versionId, versionId)))
      .for('update');
    if (!previous) throw new NotFoundError('No such version of this email');
    const [version] = await tx
      .update(emailVersions)
      .set({ name })
      .where(and(eq(emailVersions.emailId, email.id), eq(emailVersions.versionId, versionId)))
      .returning();
    if (!version) throw new NotFoundError('No such version of this email');
    await recordAuditEntry(tx, principal, {
      action: 'update',
      resourceType: 'emails.versions.name',
      resourceId: versionId,
      method: 'PATCH',
      path: request.path,
      requestId: request.id,
      details: { email_id: email.id, name, previous_name: previous.name },
    });
    const [editor] =
      version.lastUpdatedById === null
        ? []
        : await tx.select(editorColumns).from(users).where(eq(users.id, version.lastUpdatedById));
    return toEmailVersion(version, editor ?? null);
  });
}
