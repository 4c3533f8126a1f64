import { type EmailContent, permissionsForContentChange, valuesEqual } from '@letterset/core';
import { and, eq, sql } from 'drizzle-orm';
import { changesAnything } from '../../db/record-updates.ts';
import { emails } from '../../db/schema.ts';
import { requirePermission } from '../../http/access.ts';
import { ConflictError, notFoundAsFieldError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { findVisibleDesignSystem } from '../email-design-systems/email-design-systems.service.ts';
import { findVisibleProject } from '../projects/projects.service.ts';
import { designSystemComponents } from '../renders/renders.service.ts';
import { announceEmailEvent } from './email-events.ts';
import {
  brandProfileFor,
  checkedLinkTrackingProfileId,
  conditionalProblems,
  localesOf,
} from './email-input-checks.ts';
import {
  contentForLocales,
  markEditedCopies,
  translationStatusProblems,
  withoutStatusesOutside,
} from './email-locale-content.ts';
import { recordVersion } from './email-version-records.ts';
import { getEmail } from './email-visibility.ts';
import { emailContentProblems, withoutLocalesOutside } from './emails.content.ts';
import { assertEditable } from './emails.lifecycle.ts';
import { contentOf, type EmailRow } from './emails.serializers.ts';

export interface EmailChange {
  name?: string;
  projectId?: number;
  content?: EmailContent;
  locales?: string[];
  /** The locale new locales start as a copy of; the default locale when absent. */
  sourceLocale?: string;
  defaultLocale?: string;
  brandProfileId?: number | null;
  linkTrackingProfileId?: number | null;
  aiAgentId?: number | null;
  /** Set by a restore: the version whose content this change brings back, kept on the version it records. */
  restoredFromVersionId?: string;
}

/**
 * The one way an email's fields change (PATCH and version restore): published emails refuse,
 * content is checked against the design system, the permission keys the change needs are
 * required, and a write naming the version it was based on only lands on that version (409 otherwise). A content
 * or locale change records a version.
 */
export async function changeEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  current: EmailRow,
  change: EmailChange,
  basedOnLockVersion: number | undefined,
) {
  if (basedOnLockVersion !== undefined && basedOnLockVersion !== current.lockVersion) {
    await throwConflict(services, principal, workspaceId, current.id);
  }
  // A change of nothing (a PATCH of `{}`) writes nothing: no version bump that would make another
  // editor's save a conflict, no event, no new editor.
  if (!changesAnything(change)) return getEmail(services, principal, workspaceId, current.id);
  if (current.aiGenerationStatus === 'generating' && changesWhatShips(change)) {
    throw ValidationError.field(
      'email_content',
      'is being written by AI: it can be changed once ai_generation_status is done',
    );
  }
  // In review and approved, what ships is frozen; the name and the project are not part of it.
  const frozenForReview = current.status === 'in_review' || current.status === 'approved';
  if (!frozenForReview || changesWhatShips(change)) assertEditable(current.status);

  const currentContent = contentOf(current);
  const nextLocales = change.locales ?? current.locales;
  const { defaultLocale, locales } = localesOf({
    locales: nextLocales,
    // Removing the default locale moves the default to the first one left, unless one is named.
    default_locale:
      change.defaultLocale ??
      (nextLocales.includes(current.defaultLocale) ? current.defaultLocale : undefined),
  });
  const content = withoutStatusesOutside(
    contentForLocales(
      change.content
        ? markEditedCopies(currentContent, change.content)
        : withoutLocalesOutside(currentContent, locales),
      {
        previousLocales: current.locales,
        locales,
        defaultLocale,
        sourceLocale: change.sourceLocale,
      },
    ),
    locales,
  );
  // Saving what is already there (an autosave with nothing new) records no version.
  const contentChanged = !valuesEqual(content, currentContent) || !valuesEqual(locales, current.locales);

  if (change.projectId !== undefined && change.projectId !== current.projectId) {
    await findVisibleProject(services, principal, workspaceId, change.projectId).catch(
      notFoundAsFieldError('project_id', 'is not a project of this workspace that you can see'),
    );
  }
  if (change.brandProfileId !== undefined) {
    const system = await findVisibleDesignSystem(
      services,
      principal,
      workspaceId,
      current.emailDesignSystemId,
    );
    await brandProfileFor(services, system, change.brandProfileId);
  }
  await checkedLinkTrackingProfileId(services, workspaceId, change.linkTrackingProfileId);
  if (change.content !== undefined) {
    const { rows } = await designSystemComponents(services, current.emailDesignSystemId);
    const problems = emailContentProblems(
      rows.map((row) => ({ ...row, fieldDefinitions: row.fieldDefinitions })),
      change.content,
      locales,
      currentContent,
    );
    Object.assign(problems, translationStatusProblems(change.content));
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  }
  for (const permission of permissionsForContentChange(
    { content: currentContent, locales: current.locales },
    { content, locales },
  )) {
    requirePermission(principal, permission);
  }
  // Checked once the change is known to be allowed: a 403 comes before details of the workspace.
  if (change.content !== undefined) {
    const problems = await conditionalProblems(services, workspaceId, change.content);
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  }

  const updated = await services.database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(emails)
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.projectId !== undefined ? { projectId: change.projectId } : {}),
        ...(change.brandProfileId !== undefined ? { brandProfileId: change.brandProfileId } : {}),
        ...(change.linkTrackingProfileId !== undefined
          ? { linkTrackingProfileId: change.linkTrackingProfileId }
          : {}),
        ...(change.aiAgentId !== undefined ? { aiAgentId: change.aiAgentId } : {}),
        ...(contentChanged ? { content: content as unknown as Record<string, unknown>, locales } : {}),
        defaultLocale,
        // lock_version names the content that was approved: a rename during review keeps it.
        lockVersion: frozenForReview ? current.lockVersion : sql`${emails.lockVersion} + 1`,
        lastUpdatedById: principal.userId,
      })
      .where(
        and(
          eq(emails.id, current.id),
          // Only a writer who names the version it loaded is protected; without one the last write wins.
          basedOnLockVersion !== undefined ? eq(emails.lockVersion, basedOnLockVersion) : undefined,
        ),
      )
      .returning();
    if (row && contentChanged) {
      await recordVersion(tx, row, principal, null, change.restoredFromVersionId ?? null);
    }
    if (row)
      await announceEmailEvent(tx, {
        type: 'content_changed',
        email_id: row.id,
        lock_version: row.lockVersion,
      });
    return row;
  });
  // Someone else's write landed between our read and our write.
  if (!updated) await throwConflict(services, principal, workspaceId, current.id);
  return getEmail(services, principal, workspaceId, current.id);
}

/** Whether a change touches what the email ships as: content, locales, profiles. */
function changesWhatShips(change: EmailChange): boolean {
  return (
    change.content !== undefined ||
    change.locales !== undefined ||
    change.defaultLocale !== undefined ||
    change.brandProfileId !== undefined ||
    change.linkTrackingProfileId !== undefined
  );
}

async function throwConflict(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<never> {
  const email = await getEmail(services, principal, workspaceId, id);
  throw new ConflictError(
    'This email was changed since you loaded it; nothing was saved. Reload it, or send the current lock_version to overwrite',
    {
      lock_version: email.lock_version,
      email,
    },
  );
}
