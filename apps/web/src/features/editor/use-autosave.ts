import type { Editor } from '@letterset/core';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Autosave } from './autosave.ts';
import { copyOf, draftSlotOf, type EditTarget, saveTarget } from './edit-target.ts';

export type { SaveStatus, SettingsChange } from './autosave.ts';

const browserTimers = {
  set: (callback: () => void, delayMs: number) => setTimeout(callback, delayMs),
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The editor's autosave (see `Autosave`), bound to the API, the browser's localStorage and its
 * timers, with its status as React state. Null while the editor is read-only.
 */
export function useAutosave({
  workspaceId,
  target,
  editor,
  restoredDraft,
  enabled,
  onSaved,
}: {
  workspaceId: number;
  /** The server's copy the editor was opened from. */
  target: EditTarget;
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
    const opened = copyOf(target);
    return new Autosave<EditTarget>({
      editor,
      server: { document: opened.document, lockVersion: opened.lockVersion },
      restoredDraft,
      drafts: draftSlotOf(target),
      save: (request) => saveTarget(workspaceId, target, request),
      onSaved: (saved) => onSavedRef.current(saved),
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
