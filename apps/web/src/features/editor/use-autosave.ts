import type { Editor } from '@letterset/core';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Autosave, type ServerState } from './autosave.ts';
import { fetchEmail } from './collaboration/collaboration-api.ts';
import { copyOf, draftsOf, type EditTarget, saveTarget } from './edit-target.ts';

export type { SaveStatus, SettingsChange } from './autosave.ts';

const browserTimers = {
  set: (callback: () => void, delayMs: number) => setTimeout(callback, delayMs),
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The editor's autosave (see `Autosave`), bound to the API, this tab's draft in localStorage and
 * the browser's timers, with its status as React state. Null while the editor is read-only.
 */
export function useAutosave({
  workspaceId,
  target,
  server,
  editor,
  restoredDraft,
  enabled,
  onSaved,
}: {
  workspaceId: number;
  /** The email or layout the editor was opened on. */
  target: EditTarget;
  /** The server's copy the editor's document is built on (see `startingPoint`). */
  server: ServerState;
  editor: Editor;
  /** The editor opens on a draft from this browser that differs from the server's copy. */
  restoredDraft: boolean;
  enabled: boolean;
  onSaved: (saved: EditTarget) => void;
}): Autosave<EditTarget> | null {
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const [autosave] = useState(() => {
    if (!enabled) return null;
    const emailId = target.kind === 'email' ? target.email.id : null;
    return new Autosave<EditTarget>({
      editor,
      server,
      restoredDraft,
      drafts: draftsOf(target).slot,
      save: (request) => saveTarget(workspaceId, target, request),
      onSaved: (saved) => onSavedRef.current(saved),
      // Only emails announce their saves (layouts have no event stream).
      ...(emailId === null
        ? {}
        : {
            fetchLatest: () =>
              fetchEmail(workspaceId, emailId).then(
                (email) => copyOf({ kind: 'email', email }),
                () => null,
              ),
          }),
      timers: browserTimers,
    });
  });
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
