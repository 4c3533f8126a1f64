import type { EditorDocument } from '@letterset/core';
import { tabId } from '../live/tab-id.ts';

/**
 * Changes not yet saved, kept in the browser so a reload or a crash does not lose them. Each tab
 * keeps its own (two tabs, or two people, never see each other's drafts as theirs).
 */
export interface StoredDraft {
  /** The lock_version the changes were made on; saving them sends it, so a newer save conflicts. */
  lockVersion: number;
  document: EditorDocument;
  /**
   * The server's copy at `lockVersion`, as the tab knew it: what the changes were made on, so an
   * opening editor can tell whether the server already holds them and merge them onto a newer copy.
   * Absent in drafts written before tabs kept their own.
   */
  base?: EditorDocument;
  /** Documents the tab sent whose answer never came: the server may have moved on to any of them. */
  unconfirmed?: EditorDocument[];
  /** When the draft was last written (milliseconds), to label a draft left by a closed tab. */
  writtenAt?: number;
}

/** Where one tab keeps the unsaved changes of one email or one layout. */
export interface DraftSlot {
  read(): StoredDraft | null;
  write(draft: StoredDraft): void;
  clear(): void;
}

/** A draft another tab of this browser left behind (the tab is closed), and how to forget it. */
export interface LeftBehindDraft {
  draft: StoredDraft;
  remove(): void;
}

/** The drafts of one email or layout in this browser: this tab's, and those of tabs that are gone. */
export interface DraftShelf {
  slot: DraftSlot;
  leftBehind(): LeftBehindDraft[];
}

const draftPrefix = 'letterset.editor.unsaved.';
const aliveKey = (tab: string) => `letterset.tab.${tab}.alive`;

/** A tab that has not said it is open for this long is closed (it writes its sign every `tabSignMs`). */
export const tabGoneAfterMs = 30_000;
export const tabSignMs = 10_000;

/**
 * Emails keep the key prefix they have always had: a draft from before tabs kept their own (no tab
 * in its key) is one left behind by a tab that is gone.
 */
export const emailDrafts = (emailId: number) => draftShelf(`${draftPrefix}${emailId}`);
export const layoutDrafts = (layoutId: number) => draftShelf(`${draftPrefix}layout.${layoutId}`);

function draftShelf(recordKey: string): DraftShelf {
  const tabPart = '.tab.';
  return {
    slot: draftSlot(`${recordKey}${tabPart}${tabId()}`),
    leftBehind() {
      const found: LeftBehindDraft[] = [];
      for (const key of storageKeys()) {
        const isLegacy = key === recordKey;
        const isOtherTab = key.startsWith(`${recordKey}${tabPart}`) && !key.endsWith(`${tabPart}${tabId()}`);
        if (!isLegacy && !isOtherTab) continue;
        if (isOtherTab && tabIsOpen(key.slice(`${recordKey}${tabPart}`.length))) continue;
        const slot = draftSlot(key);
        const draft = slot.read();
        if (draft) found.push({ draft, remove: () => slot.clear() });
      }
      return found.sort((a, b) => (b.draft.writtenAt ?? 0) - (a.draft.writtenAt ?? 0));
    },
  };
}

function storageKeys(): string[] {
  try {
    return Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index) ?? '');
  } catch {
    return [];
  }
}

function tabIsOpen(tab: string): boolean {
  const sign = Number(localStorage.getItem(aliveKey(tab)) ?? 0);
  return Date.now() - sign < tabGoneAfterMs;
}

/**
 * Says, while the editor is open, that this tab is alive, so other tabs do not take its draft for
 * one left behind; returns the function that stops (and takes the sign down, as closing the tab does).
 */
export function keepTabSignUp(): () => void {
  const key = aliveKey(tabId());
  const sign = () => {
    try {
      localStorage.setItem(key, String(Date.now()));
    } catch {
      // Without storage there are no drafts to protect.
    }
  };
  sign();
  const timer = setInterval(sign, tabSignMs);
  const takeDown = () => localStorage.removeItem(key);
  window.addEventListener('pagehide', takeDown);
  window.addEventListener('pageshow', sign);
  return () => {
    clearInterval(timer);
    window.removeEventListener('pagehide', takeDown);
    window.removeEventListener('pageshow', sign);
    takeDown();
  };
}

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
        localStorage.setItem(key, JSON.stringify({ ...draft, writtenAt: Date.now() }));
      } catch {
        // A full storage only loses the crash protection; saving to the server goes on.
      }
    },
    clear() {
      localStorage.removeItem(key);
    },
  };
}
