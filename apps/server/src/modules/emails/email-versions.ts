import type { EmailContent } from '@letterset/core';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { emailVersions, users } from '../../db/schema.ts';
import { NotFoundError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { toUserReference } from '../users/users.serializers.ts';
import { changeEmail } from './email-changes.ts';
import { findVisibleEmail } from './email-visibility.ts';
import type { EmailVersion } from './emails.schemas.ts';
import { editorColumns } from './emails.serializers.ts';

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
  const results: Static<typeof EmailVersion>[] = rows.map(({ version, editor }) => ({
    version_id: version.versionId,
    email_data: version.emailData as Static<typeof EmailVersion>['email_data'],
    created_at: version.createdAt,
    last_updated_by: editor ? toUserReference(editor) : null,
    ai_feature: version.aiFeature,
  }));
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
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const [version] = await services.database.db
    .select()
    .from(emailVersions)
    .where(and(eq(emailVersions.emailId, id), eq(emailVersions.versionId, versionId)));
  if (!version) throw new NotFoundError('No such version of this email');
  const locales = version.emailData.locales;
  return changeEmail(
    services,
    principal,
    workspaceId,
    email,
    {
      content: version.emailData.email_content as unknown as EmailContent,
      locales,
      defaultLocale: locales.includes(email.defaultLocale) ? email.defaultLocale : locales[0],
    },
    undefined,
  );
}
