import type { Editor, EditorDocument } from '@letterset/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../app/api.ts';
import { ApiError, errorMessage, unwrap } from '../../shared/api-error.ts';
import { clearDraft, writeDraft } from './drafts.ts';
import type { Email } from './editor-data.ts';

export type SaveStatus =
  | { kind: 'saved' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'offline' }
  | { kind: 'conflict'; theirs: Email }
  | { kind: 'failed'; message: string };

/** Email settings saved with the content but outside the undo history. */
export interface EmailSettingsChange {
  brand_profile_id?: number | null;
  link_tracking_profile_id?: number | null;
}

const saveDelayMs = 800;
const offlineRetryMs = 5000;

/**
 * Saves the editor's document a moment after the user stops changing it, with the lock_version it
 * was loaded at: a 409 means someone saved in between, and nothing is written until the user
 * chooses. Unsaved changes are also kept in localStorage until the server has them.
 */
export function useAutosave({
  workspaceId,
  email,
  editor,
  startLockVersion,
  startsUnsaved,
  enabled,
  onSaved,
}: {
  workspaceId: number;
  email: Email;
  editor: Editor;
  startLockVersion: number;
  startsUnsaved: boolean;
  enabled: boolean;
  onSaved: (email: Email) => void;
}) {
  const [status, setStatus] = useState<SaveStatus>({ kind: startsUnsaved ? 'unsaved' : 'saved' });
  const lockVersion = useRef(startLockVersion);
  const savedDocument = useRef<EditorDocument | null>(startsUnsaved ? null : editor.getState().document);
  const pendingSettings = useRef<EmailSettingsChange>({});
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(false);
  const blocked = useRef(false);
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;

  const save = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (inFlight.current || blocked.current) return;
    const document = editor.getState().document;
    const settings = pendingSettings.current;
    const contentChanged = document !== savedDocument.current;
    if (!contentChanged && Object.keys(settings).length === 0) return;
    inFlight.current = true;
    pendingSettings.current = {};
    setStatus({ kind: 'saving' });
    try {
      const saved = await unwrap(
        api.PATCH('/api/v1/workspaces/{workspace_id}/emails/{id}', {
          params: { path: { workspace_id: workspaceId, id: email.id } },
          body: {
            lock_version: lockVersion.current,
            ...settings,
            ...(contentChanged
              ? {
                  email_content: document.content as Email['email_content'],
                  locales: document.locales as Email['locales'],
                  default_locale: document.defaultLocale as Email['default_locale'],
                }
              : {}),
          },
        }),
      );
      lockVersion.current = saved.lock_version;
      savedDocument.current = document;
      onSavedRef.current(saved);
      if (editor.getState().document === document) {
        clearDraft(email.id);
        setStatus({ kind: 'saved' });
      } else {
        setStatus({ kind: 'unsaved' });
        timer.current = setTimeout(save, saveDelayMs);
      }
    } catch (error) {
      pendingSettings.current = { ...settings, ...pendingSettings.current };
      if (error instanceof ApiError && error.status === 409) {
        blocked.current = true;
        const body = error.body as { email: Email };
        setStatus({ kind: 'conflict', theirs: body.email });
      } else if (error instanceof TypeError) {
        setStatus({ kind: 'offline' });
        timer.current = setTimeout(save, offlineRetryMs);
      } else {
        setStatus({ kind: 'failed', message: errorMessage(error) });
      }
    } finally {
      inFlight.current = false;
    }
  }, [editor, email.id, workspaceId]);

  const scheduleSave = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(save, saveDelayMs);
  }, [save]);

  useEffect(() => {
    if (!enabled) return;
    const stop = editor.subscribe(() => {
      const document = editor.getState().document;
      if (document === savedDocument.current) return;
      writeDraft(email.id, { lockVersion: lockVersion.current, document });
      if (!blocked.current)
        setStatus((current) => (current.kind === 'saving' ? current : { kind: 'unsaved' }));
      scheduleSave();
    });
    if (savedDocument.current === null) scheduleSave();
    const retryOnline = () => {
      if (!blocked.current) void save();
    };
    window.addEventListener('online', retryOnline);
    return () => {
      stop();
      window.removeEventListener('online', retryOnline);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [editor, email.id, enabled, save, scheduleSave]);

  return {
    status,
    /** Saves a settings change (brand profile, link tracking profile) with the next save, now. */
    saveSettings(change: EmailSettingsChange) {
      pendingSettings.current = { ...pendingSettings.current, ...change };
      void save();
    },
    /** "Overwrite with mine": save the current document on top of the version that conflicted. */
    overwrite(theirs: Email) {
      lockVersion.current = theirs.lock_version;
      savedDocument.current = null;
      blocked.current = false;
      writeDraft(email.id, { lockVersion: theirs.lock_version, document: editor.getState().document });
      void save();
    },
    retry() {
      void save();
    },
  };
}
