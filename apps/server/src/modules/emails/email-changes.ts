import { type EmailContent, permissionsForContentChange, valuesEqual } from '@letterset/core';
import type { Static } from 'typebox';
import { changesAnything } from '../../db/record-updates.ts';
import { requirePermission } from '../../http/access.ts';
import { ConflictError, notFoundAsFieldError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { findVisibleDesignSystem } from '../email-design-systems/email-design-systems.service.ts';
import { findVisibleProject } from '../projects/projects.service.ts';
import { keptDesignSystem } from '../renders/renders.service.ts';
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
import { getEmail } from './email-visibility.ts';
import { saveInEditingSession, writeEmailChange } from './email-writes.ts';
import { emailContentProblems, withoutLocalesOutside } from './emails.content.ts';
import { assertEditable } from './emails.lifecycle.ts';
import type { Email } from './emails.schemas.ts';
import { contentOf, type Editor, type EmailRow, toEmailResponse } from './emails.serializers.ts';

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
  found: { email: EmailRow; editor: Editor },
  change: EmailChange,
  basedOnLockVersion: number | undefined,
): Promise<{
  email: Static<typeof Email>;
  /**
   * Whether this was a later save of content in an open editing session, which the session's first
   * save stands for in the audit log. A change of anything else (a name, a profile) is never one.
   */
  savedInOpenSession: boolean;
}> {
  const { email: current, editor: currentEditor } = found;
  if (basedOnLockVersion !== undefined && basedOnLockVersion !== current.lockVersion) {
    await throwConflict(services, principal, workspaceId, current.id);
  }
  // A change of nothing (a PATCH of `{}`) writes nothing: no version bump that would make another
  // editor's save a conflict, no event, no new editor.
  if (!changesAnything(change)) {
    return { email: toEmailResponse(current, currentEditor), savedInOpenSession: false };
  }
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
    const { componentRows } = await keptDesignSystem(services, current.emailDesignSystemId, workspaceId);
    const problems = emailContentProblems(componentRows, change.content, locales, currentContent);
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

  const columns = {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.projectId !== undefined ? { projectId: change.projectId } : {}),
    ...(change.brandProfileId !== undefined ? { brandProfileId: change.brandProfileId } : {}),
    ...(change.linkTrackingProfileId !== undefined
      ? { linkTrackingProfileId: change.linkTrackingProfileId }
      : {}),
    ...(change.aiAgentId !== undefined ? { aiAgentId: change.aiAgentId } : {}),
    ...(contentChanged ? { content: content as unknown as EmailRow['content'], locales } : {}),
    defaultLocale,
    lastUpdatedById: principal.userId,
  };
  const written = {
    id: current.id,
    columns,
    // lock_version names the content that was approved: a rename during review keeps it.
    bumpsLockVersion: !frozenForReview,
    // Only a writer who names the version it loaded is protected; without one the last write wins.
    basedOnLockVersion,
  };
  // An edit continues its editing session; a restore is a history entry of its own.
  const saved =
    contentChanged && change.restoredFromVersionId === undefined
      ? await saveInEditingSession(services.database.db, written, principal.userId, current.openVersionId)
      : await writeEmailChange(services.database.db, written, {
          author: principal,
          contentChanged,
          restoredFromVersionId: change.restoredFromVersionId ?? null,
        });
  // Someone else's write landed between our read and our write.
  if (!saved) return throwConflict(services, principal, workspaceId, current.id);

  const email: EmailRow = {
    ...current,
    ...columns,
    lockVersion: saved.lockVersion,
    updatedAt: saved.updatedAt,
  };
  // The answer is the row as written; who wrote it is the caller, known already when they wrote it last.
  const editorUnchanged = currentEditor !== null && currentEditor.id === principal.userId;
  const answer =
    editorUnchanged && change.projectId === undefined
      ? toEmailResponse(email, currentEditor)
      : await getEmail(services, principal, workspaceId, current.id);
  const changesOnlyContent =
    change.name === undefined &&
    change.projectId === undefined &&
    change.brandProfileId === undefined &&
    change.linkTrackingProfileId === undefined &&
    change.aiAgentId === undefined;
  return { email: answer, savedInOpenSession: saved.continuedEditingSession && changesOnlyContent };
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
