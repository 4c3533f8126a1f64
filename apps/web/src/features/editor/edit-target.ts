import type { EditorDocument } from '@letterset/core';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { type Layout, layoutChanges, layoutDocument } from '../layouts/layout-content.ts';
import type { SaveAnswer, SaveRequest, ServerCopy } from './autosave.ts';
import { type DraftShelf, emailDrafts, layoutDrafts } from './drafts.ts';
import { type Email, patchEmail, patchLayout } from './editor-api.ts';

/**
 * What the editor edits: an email, or a layout. A layout is edited the same way, without what only
 * an email has (subject, preheader, status, review, versions, link tracking).
 */
export type EditTarget = { kind: 'email'; email: Email } | { kind: 'layout'; layout: Layout };

export function emailDocument(email: Email): EditorDocument {
  return {
    content: email.email_content as EditorDocument['content'],
    locales: email.locales,
    defaultLocale: email.default_locale,
  };
}

export function documentOf(target: EditTarget): EditorDocument {
  return target.kind === 'email' ? emailDocument(target.email) : layoutDocument(target.layout);
}

export function copyOf(target: EditTarget): ServerCopy<EditTarget> {
  const record = target.kind === 'email' ? target.email : target.layout;
  return { saved: target, lockVersion: record.lock_version, document: documentOf(target) };
}

/** This browser's drafts of the email or layout: this tab's, and those closed tabs left behind. */
export function draftsOf(target: EditTarget): DraftShelf {
  return target.kind === 'email' ? emailDrafts(target.email.id) : layoutDrafts(target.layout.id);
}

export function nameOf(target: EditTarget): string {
  return target.kind === 'email' ? target.email.name : target.layout.name;
}

export function brandProfileIdOf(target: EditTarget): number | null {
  return (target.kind === 'email' ? target.email.brand_profile_id : target.layout.brand_profile_id) ?? null;
}

/** One PATCH of the email or layout, its answer told in the terms the autosave decides on. */
export async function saveTarget(
  workspaceId: number,
  target: EditTarget,
  request: SaveRequest,
): Promise<SaveAnswer<EditTarget>> {
  try {
    const saved =
      target.kind === 'email'
        ? ({
            kind: 'email',
            email: await patchEmail(workspaceId, target.email.id, emailChanges(request)),
          } as const)
        : ({
            kind: 'layout',
            layout: await patchLayout(workspaceId, target.layout.id, layoutChangesOf(request)),
          } as const);
    return { kind: 'saved', copy: copyOf(saved) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      const body = error.body as { email?: Email; layout?: Layout };
      const theirs: EditTarget = body.layout
        ? { kind: 'layout', layout: body.layout }
        : { kind: 'email', email: body.email as Email };
      return { kind: 'conflict', theirs: copyOf(theirs) };
    }
    // fetch rejects with a TypeError when the server cannot be reached.
    if (error instanceof TypeError) return { kind: 'offline' };
    return { kind: 'failed', message: errorMessage(error) };
  }
}

function emailChanges(request: SaveRequest) {
  return {
    lock_version: request.lockVersion,
    ...request.settings,
    ...(request.document
      ? {
          email_content: request.document.content as Email['email_content'],
          locales: request.document.locales as Email['locales'],
          default_locale: request.document.defaultLocale as Email['default_locale'],
        }
      : {}),
  };
}

function layoutChangesOf(request: SaveRequest) {
  const { link_tracking_profile_id: _layoutsHaveNone, ...settings } = request.settings;
  const changes = request.document ? layoutChanges(request.document) : null;
  return {
    lock_version: request.lockVersion,
    ...settings,
    ...(changes
      ? {
          content: changes.content as Layout['content'],
          locales: changes.locales as Layout['locales'],
        }
      : {}),
  };
}
