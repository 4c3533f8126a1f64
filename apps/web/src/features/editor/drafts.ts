import type { EditorDocument } from '@letterset/core';

/** Changes not yet saved, kept in the browser so a reload or a crash does not lose them. */
export interface StoredDraft {
  /** The lock_version the changes were made on; saving them sends it, so a newer save conflicts. */
  lockVersion: number;
  document: EditorDocument;
}

/** Where this browser keeps the unsaved changes of one email or one layout. */
export interface DraftSlot {
  read(): StoredDraft | null;
  write(draft: StoredDraft): void;
  clear(): void;
}

/** Emails keep the key they have always had, so drafts written before layouts could be edited still restore. */
export const emailDraftSlot = (emailId: number) => draftSlot(`letterset.editor.unsaved.${emailId}`);
export const layoutDraftSlot = (layoutId: number) => draftSlot(`letterset.editor.unsaved.layout.${layoutId}`);

function draftSlot(key: string): DraftSlot {
  return {
    read() {
      try {
        const stored = localStorage.getItem(key);
        if (!stored) return null;
        const draft = JSON.parse(stored) as StoredDraft;
        return typeof draft.lockVersion === 'number' && draft.document?.content ? draft : null;
      } catch {
        return null;
      }
    },
    write(draft) {
      try {
        localStorage.setItem(key, JSON.stringify(draft));
      } catch {
        // A full storage only loses the crash protection; saving to the server goes on.
      }
    },
    clear() {
      localStorage.removeItem(key);
    },
  };
}
