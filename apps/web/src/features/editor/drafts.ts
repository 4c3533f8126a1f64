import type { EditorDocument } from '@letterset/core';

/** Changes not yet saved, kept in the browser so a reload or a crash does not lose them. */
export interface StoredDraft {
  /** The lock_version the changes were made on; saving them sends it, so a newer save conflicts. */
  lockVersion: number;
  document: EditorDocument;
}

const keyOf = (emailId: number) => `letterset.editor.unsaved.${emailId}`;

export function readDraft(emailId: number): StoredDraft | null {
  try {
    const stored = localStorage.getItem(keyOf(emailId));
    if (!stored) return null;
    const draft = JSON.parse(stored) as StoredDraft;
    return typeof draft.lockVersion === 'number' && draft.document?.content ? draft : null;
  } catch {
    return null;
  }
}

export function writeDraft(emailId: number, draft: StoredDraft): void {
  try {
    localStorage.setItem(keyOf(emailId), JSON.stringify(draft));
  } catch {
    // A full storage only loses the crash protection; saving to the server goes on.
  }
}

export function clearDraft(emailId: number): void {
  localStorage.removeItem(keyOf(emailId));
}
