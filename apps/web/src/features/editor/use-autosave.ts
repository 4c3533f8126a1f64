import type { Editor } from '@letterset/core';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { api } from '../../app/api.ts';
import { ApiError, errorMessage, unwrap } from '../../shared/api-error.ts';
import { Autosave, documentOf, type SaveAnswer, type SaveRequest } from './autosave.ts';
import { clearDraft, writeDraft } from './drafts.ts';
import type { Email } from './editor-data.ts';

export type { EmailSettingsChange, SaveStatus } from './autosave.ts';

const browserTimers = {
  set: (callback: () => void, delayMs: number) => setTimeout(callback, delayMs),
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One PATCH of the email, its answer told in the terms the autosave decides on. */
async function saveEmail(workspaceId: number, emailId: number, request: SaveRequest): Promise<SaveAnswer> {
  try {
    const email = await unwrap(
      api.PATCH('/api/v1/workspaces/{workspace_id}/emails/{id}', {
        params: { path: { workspace_id: workspaceId, id: emailId } },
        body: {
          lock_version: request.lockVersion,
          ...request.settings,
          ...(request.document
            ? {
                email_content: request.document.content as Email['email_content'],
                locales: request.document.locales as Email['locales'],
                default_locale: request.document.defaultLocale as Email['default_locale'],
              }
            : {}),
        },
      }),
    );
    return { kind: 'saved', email };
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      return { kind: 'conflict', theirs: (error.body as { email: Email }).email };
    }
    // fetch rejects with a TypeError when the server cannot be reached.
    if (error instanceof TypeError) return { kind: 'offline' };
    return { kind: 'failed', message: errorMessage(error) };
  }
}

/**
 * The editor's autosave (see `Autosave`), bound to the API, the browser's localStorage and its
 * timers, with its status as React state. Null while the editor is read-only.
 */
export function useAutosave({
  workspaceId,
  email,
  editor,
  restoredDraft,
  enabled,
  onSaved,
}: {
  workspaceId: number;
  /** The server's copy the editor was opened from. */
  email: Email;
  editor: Editor;
  /** The editor opens on a draft from this browser that differs from the server's copy. */
  restoredDraft: boolean;
  enabled: boolean;
  onSaved: (email: Email) => void;
}): Autosave | null {
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const [autosave] = useState(() =>
    enabled
      ? new Autosave({
          editor,
          server: { document: documentOf(email), lockVersion: email.lock_version },
          restoredDraft,
          drafts: { write: (draft) => writeDraft(email.id, draft), clear: () => clearDraft(email.id) },
          saveEmail: (request) => saveEmail(workspaceId, email.id, request),
          onSaved: (saved) => onSavedRef.current(saved),
          timers: browserTimers,
        })
      : null,
  );
  useEffect(() => {
    if (!autosave) return;
    const stop = autosave.start();
    const retryOnline = () => autosave.retry();
    window.addEventListener('online', retryOnline);
    return () => {
      stop();
      window.removeEventListener('online', retryOnline);
    };
  }, [autosave]);
  const subscribe = useCallback(
    (listener: () => void) => autosave?.subscribe(listener) ?? (() => undefined),
    [autosave],
  );
  useSyncExternalStore(subscribe, () => autosave?.status);
  return autosave;
}
