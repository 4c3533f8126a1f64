import { type Editor, type EditorDocument, mergeDocuments, sameDocument } from '@letterset/core';
import type { StoredDraft } from './drafts.ts';

/**
 * The server's copy of what the editor edits (an email or a layout): the record as the API answered
 * it, and the two things the autosave reasons about, its lock_version and its document.
 */
export interface ServerCopy<Saved> {
  saved: Saved;
  lockVersion: number;
  document: EditorDocument;
}

export type SaveStatus<Saved = unknown> =
  | { kind: 'saved' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'offline' }
  | { kind: 'conflict'; theirs: ServerCopy<Saved> }
  /** Changes this browser kept from an earlier session differ from the server's copy: keep or discard? */
  | { kind: 'restored_draft' }
  | { kind: 'failed'; message: string };

/** Settings saved with the content but outside the undo history (brand and link tracking profile). */
export interface SettingsChange {
  brand_profile_id?: number | null;
  link_tracking_profile_id?: number | null;
}

export interface SaveRequest {
  lockVersion: number;
  settings: SettingsChange;
  /** Absent when only settings changed. */
  document?: EditorDocument;
}

/** How a save ended, as the autosave needs to know it (the API call maps its answers to these). */
export type SaveAnswer<Saved> =
  | { kind: 'saved'; copy: ServerCopy<Saved> }
  | { kind: 'conflict'; theirs: ServerCopy<Saved> }
  | { kind: 'offline' }
  | { kind: 'failed'; message: string };

/** The browser's copy of unsaved changes, for one email or layout. */
export interface DraftStore {
  write(draft: StoredDraft): void;
  clear(): void;
}

/** setTimeout and clearTimeout, injectable so tests drive time. */
export interface Timers {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export interface AutosaveOptions<Saved> {
  editor: Editor;
  /** The server's copy the editor's document is built on. */
  server: ServerState;
  /** The editor opens on a draft from this browser that differs from the server's copy: nothing is saved until the user chooses. */
  restoredDraft: boolean;
  drafts: DraftStore;
  save(request: SaveRequest): Promise<SaveAnswer<Saved>>;
  onSaved(saved: Saved): void;
  /**
   * Fetches the server's current copy, for saves announced by the event stream (null when it
   * cannot be had now: the next announcement or resync tries again). Without it, others' saves
   * are met only when a save of this editor's conflicts with them.
   */
  fetchLatest?(): Promise<ServerCopy<Saved> | null>;
  timers: Timers;
}

export const saveDelayMs = 800;
export const offlineRetryMs = 5000;

/** The server's copy an autosave builds on: the lock_version it saves with and the document it holds. */
export interface ServerState {
  document: EditorDocument;
  lockVersion: number;
}

/** Where the editor opens, and what becomes of the drafts this browser kept. */
export interface StartingPoint {
  document: EditorDocument;
  /** The server's copy the autosave builds on (older than the one opened when a draft cannot be merged onto it). */
  server: ServerState;
  /** The editor opens on a draft that differs from the server's copy: nothing is saved until the user chooses. */
  restoredDraft: boolean;
  /** Whose draft is offered: this tab's (a reload or a crash) or one a closed tab left behind. */
  draftSource: 'this_tab' | 'another_tab' | null;
  /** When the offered draft was last written, if known. */
  draftWrittenAt: number | null;
  /** This tab's draft is stale (the server holds its changes): forget it. */
  staleDraft: boolean;
  /** Drafts of closed tabs that the server already holds, or the one offered (it becomes this tab's): forget them. */
  leftBehindToRemove: number[];
}

/**
 * What a newer copy of the server's (`theirs`) was built on, for a three-way merge. The server held
 * `known` at the lock_version the editor knows, but a save of the editor's whose answer was lost
 * (`unconfirmed`) may have landed before theirs: then their copy holds all of that save's changes,
 * and it is the base (else undoing one of its edits would look unchanged on our side and theirs
 * would bring the edit back). Of such saves, the one whose changes hold the others'; none, or no
 * such one, leaves `known`.
 */
export function mergeBaseOf(
  known: EditorDocument,
  unconfirmed: readonly EditorDocument[],
  theirs: EditorDocument,
): EditorDocument {
  const holds = (outer: EditorDocument, inner: EditorDocument) => {
    const result = mergeDocuments(known, inner, outer);
    return 'merged' in result && sameDocument(result.merged, outer);
  };
  const landed = unconfirmed.filter((sent) => holds(theirs, sent));
  return landed.find((sent) => landed.every((other) => holds(sent, other))) ?? known;
}

/**
 * Whether the server's copy already holds a draft's changes: it equals the draft, or merging the
 * draft onto it (from what the draft was made on) changes nothing.
 */
export function serverHolds(server: EditorDocument, draft: StoredDraft): boolean {
  if (sameDocument(draft.document, server)) return true;
  if (!draft.base) return false;
  const result = mergeDocuments(draftBase(draft, server), draft.document, server);
  return 'merged' in result && sameDocument(result.merged, server);
}

/**
 * Where the editor starts: the server's copy, or a draft this browser kept whose changes the server
 * does not hold. This tab's own draft comes first (a reload, or a crash of this tab); without one,
 * the newest draft a closed tab left behind is offered; another open tab's draft never is. A draft
 * made on an older copy is merged onto the server's copy, so keeping it never writes an old state
 * over newer work; when the two changed the same value, the editor opens on the draft as it was,
 * built on the copy it was made on, and keeping it meets the server's newer copy (the merge, or the
 * choose-a-version dialog). A draft from before drafts knew their base is offered as it is.
 */
export function startingPoint(
  server: ServerState,
  ownDraft: StoredDraft | null,
  leftBehind: readonly StoredDraft[] = [],
): StartingPoint {
  const opened: StartingPoint = {
    document: server.document,
    server,
    restoredDraft: false,
    draftSource: null,
    draftWrittenAt: null,
    staleDraft: false,
    leftBehindToRemove: [],
  };
  const ownStale = ownDraft !== null && serverHolds(server.document, ownDraft);
  if (ownDraft && !ownStale) return { ...opened, ...restore(server, ownDraft), draftSource: 'this_tab' };
  const stale = leftBehind.flatMap((draft, index) => (serverHolds(server.document, draft) ? [index] : []));
  const offered = leftBehind.findIndex((_, index) => !stale.includes(index));
  const base = { ...opened, staleDraft: ownStale, leftBehindToRemove: stale };
  const offeredDraft = leftBehind[offered];
  if (!offeredDraft) return base;
  return {
    ...base,
    ...restore(server, offeredDraft),
    draftSource: 'another_tab',
    leftBehindToRemove: [...stale, offered],
  };
}

function restore(
  server: ServerState,
  draft: StoredDraft,
): Pick<StartingPoint, 'document' | 'server' | 'restoredDraft' | 'draftWrittenAt'> {
  const restored = { restoredDraft: true, draftWrittenAt: draft.writtenAt ?? null };
  if (!draft.base || draft.lockVersion === server.lockVersion) {
    return { ...restored, document: draft.document, server };
  }
  const base = draftBase(draft, server.document);
  // The server moved on by a save of the tab's own whose answer was lost: the draft builds on it.
  if (sameDocument(base, server.document)) return { ...restored, document: draft.document, server };
  const merged = mergeDocuments(base, draft.document, server.document);
  if ('merged' in merged) return { ...restored, document: merged.merged, server };
  return {
    ...restored,
    document: draft.document,
    server: { document: base, lockVersion: draft.lockVersion },
  };
}

/** What the server's copy was built on, from the draft's point of view (see `mergeBaseOf`). */
function draftBase(draft: StoredDraft, server: EditorDocument): EditorDocument {
  return mergeBaseOf(draft.base ?? server, draft.unconfirmed ?? [], server);
}

/**
 * Keeps the server's copy, the browser's draft and the save status in agreement, whatever the order
 * of edits, undos, redos, saves, failures and reloads:
 * - the draft holds the editor's document whenever the server might not (a reload then shows what
 *   the user saw); it is cleared only once the server is known to hold exactly that document;
 * - "saved" is shown exactly when the server holds the editor's document and nothing is pending;
 * - one save at a time, sent a moment after the last change with the lock_version the server's copy
 *   has, so a 409 means someone else saved;
 * - after a 409, the other save is merged into the editor's document (and its undo history) when the
 *   two changed different values, and the merge is saved on top of theirs; otherwise (the same value
 *   changed differently, structure changed on both sides, settings not yet saved) nothing is written
 *   until the user chooses.
 */
export class Autosave<Saved> {
  private readonly options: AutosaveOptions<Saved>;
  private readonly listeners = new Set<() => void>();
  private currentStatus: SaveStatus<Saved>;
  private lockVersion: number;
  /** The document the server holds at `lockVersion`, as far as this editor knows. */
  private serverDocument: EditorDocument;
  private pendingSettings: SettingsChange = {};
  private timer: unknown = null;
  /** The save under way, if any: its answer may still change what the server holds. */
  private inFlight: SaveRequest | null = null;
  /** Documents sent whose answer never came (offline): the server may hold any of them. */
  private unconfirmed: EditorDocument[] = [];
  private running = false;
  /** Set while the editor takes in someone else's change, which is not an edit to react to. */
  private rebasing = false;
  /** The newest lock_version the event stream announced (a save of anyone's, this editor's included). */
  private announcedLockVersion = 0;
  /** The stream may have missed announcements: look at the server's copy once. */
  private recheckRequested = false;
  private fetchingLatest = false;

  constructor(options: AutosaveOptions<Saved>) {
    this.options = options;
    this.lockVersion = options.server.lockVersion;
    this.serverDocument = options.server.document;
    this.currentStatus = { kind: options.restoredDraft ? 'restored_draft' : 'saved' };
  }

  /** Starts following the editor; returns the function that stops it (timers and late answers die with it). */
  start(): () => void {
    this.running = true;
    const stopListening = this.options.editor.subscribe(() => this.onEditorChange());
    this.reconcile();
    return () => {
      this.running = false;
      stopListening();
      this.cancelTimer();
    };
  }

  get status(): SaveStatus<Saved> {
    return this.currentStatus;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A settings change of the user's is waiting to be sent (one in flight is not: its answer brings
   * it). While one waits, the settings of a copy the server answers are older than the user's.
   */
  get settingsPending(): boolean {
    return Object.keys(this.pendingSettings).length > 0;
  }

  /** Saves a settings change (brand profile, link tracking profile) now, with any content change. */
  saveSettings(change: SettingsChange): void {
    this.pendingSettings = { ...this.pendingSettings, ...change };
    void this.save();
  }

  /** "Overwrite with mine" after a conflict: save the editor's document on top of theirs. */
  overwrite(theirs: ServerCopy<Saved>): void {
    if (this.currentStatus.kind !== 'conflict') return;
    this.adoptServerCopy(theirs);
    this.setStatus({ kind: 'unsaved' });
    this.reconcile();
    void this.save();
  }

  /** "Keep my changes" for a restored draft: save it over the copy the editor was opened from. */
  keepRestoredDraft(): void {
    if (this.currentStatus.kind !== 'restored_draft') return;
    this.setStatus({ kind: 'unsaved' });
    this.reconcile();
    void this.save();
  }

  /** "Reload theirs" or "Discard my changes": the editor is about to start over from the server's copy. */
  discardChanges(): void {
    this.running = false;
    this.cancelTimer();
    this.options.drafts.clear();
  }

  retry(): void {
    void this.save();
  }

  /**
   * The event stream announces that the server's copy reached `lockVersion`. A save of someone
   * else's (newer than the copy this editor builds on) is fetched and merged in; the announcement
   * of this editor's own save is recognised by its lock_version: a save under way is answered
   * first, and an announcement not newer than what the editor builds on is ignored, so duplicates
   * and announcements out of order change nothing.
   */
  announced(lockVersion: number): void {
    this.announcedLockVersion = Math.max(this.announcedLockVersion, lockVersion);
    void this.catchUp();
  }

  /** The event stream reconnected and may have missed announcements: compare with the server's copy once. */
  resync(): void {
    this.recheckRequested = true;
    void this.catchUp();
  }

  /**
   * Fetches the server's copy when it is newer than the one the editor builds on, and takes it in
   * as a conflict's copy is (merged without a dialog unless the same value changed on both sides).
   * Waits while a save is under way (its answer settles the lock_version), while the user has a
   * dialog to answer, and while a settings change is waiting (its save meets the newer copy anyway).
   */
  private async catchUp(): Promise<void> {
    if (!this.running || !this.options.fetchLatest || this.fetchingLatest) return;
    if (this.inFlight || this.isBlocked() || this.settingsPending) return;
    if (this.announcedLockVersion <= this.lockVersion && !this.recheckRequested) return;
    const announcedBefore = this.announcedLockVersion;
    this.recheckRequested = false;
    this.fetchingLatest = true;
    let latest: ServerCopy<Saved> | null;
    try {
      latest = await this.options.fetchLatest();
    } catch {
      latest = null;
    } finally {
      this.fetchingLatest = false;
    }
    if (!this.running) return;
    // A save that started meanwhile meets the newer copy itself (a 409); its answer comes back here.
    if (latest && latest.lockVersion > this.lockVersion && !this.inFlight && !this.isBlocked()) {
      this.takeIn(latest);
    }
    if (this.announcedLockVersion > announcedBefore || this.recheckRequested) void this.catchUp();
  }

  /** A newer copy of the server's that this editor did not save (or whose answer it lost). */
  private takeIn(theirs: ServerCopy<Saved>): void {
    if (this.unconfirmed.some((document) => sameDocument(document, theirs.document))) {
      this.adoptServerCopy(theirs);
      this.options.onSaved(theirs.saved);
      this.reconcile();
      return;
    }
    if (this.mergeTheirs(theirs)) return;
    this.setStatus({ kind: 'conflict', theirs });
    this.reconcile();
  }

  /** A new edit starts a fresh attempt after a failure; a conflict or a restored draft still waits. */
  private onEditorChange(): void {
    if (this.rebasing) return;
    if (this.currentStatus.kind === 'offline' || this.currentStatus.kind === 'failed') {
      this.setStatus({ kind: 'unsaved' });
    }
    this.reconcile();
  }

  /** After any change: bring the draft, the status and the next save in line with the editor and the server. */
  private reconcile(): void {
    if (!this.running) return;
    const document = this.options.editor.getState().document;
    const blocked = this.isBlocked();
    const settled =
      this.serverSurelyHolds(document) &&
      this.inFlight === null &&
      Object.keys(this.pendingSettings).length === 0;
    if (settled && !blocked) {
      this.cancelTimer();
      this.options.drafts.clear();
      this.setStatus({ kind: 'saved' });
      return;
    }
    // A save under way may still land, so until its answer the draft keeps what the user sees.
    // With the documents the server may have moved on to (the save under way, saves whose answer
    // was lost), so that an editor opened on this draft can tell its own saves from others'.
    const unconfirmed = [...this.unconfirmed, ...(this.inFlight?.document ? [this.inFlight.document] : [])];
    this.options.drafts.write({
      lockVersion: this.lockVersion,
      base: this.serverDocument,
      ...(unconfirmed.length > 0 ? { unconfirmed } : {}),
      document,
    });
    if (blocked) return;
    if (this.inFlight) {
      this.setStatus({ kind: 'saving' });
      return;
    }
    // Offline retries on its own timer; a failure waits for an edit or Retry.
    if (this.currentStatus.kind === 'offline' || this.currentStatus.kind === 'failed') return;
    this.setStatus({ kind: 'unsaved' });
    this.schedule(saveDelayMs);
  }

  private async save(): Promise<void> {
    this.cancelTimer();
    if (!this.running || this.inFlight || this.isBlocked()) return;
    const document = this.options.editor.getState().document;
    const contentChanged = !this.serverSurelyHolds(document);
    const settings = this.pendingSettings;
    if (!contentChanged && Object.keys(settings).length === 0) {
      this.reconcile();
      return;
    }
    const request: SaveRequest = {
      lockVersion: this.lockVersion,
      settings,
      ...(contentChanged ? { document } : {}),
    };
    this.inFlight = request;
    this.pendingSettings = {};
    this.setStatus({ kind: 'saving' });
    let answer: SaveAnswer<Saved>;
    try {
      answer = await this.options.save(request);
    } catch (error) {
      // save maps the API's answers; anything it throws is a failure to show, never a save stuck "Saving…".
      answer = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
    this.inFlight = null;
    if (!this.running) return;
    this.settle(request, answer);
    // Saves announced while this one was under way are looked at now that its lock_version is known.
    void this.catchUp();
  }

  private settle(request: SaveRequest, answer: SaveAnswer<Saved>): void {
    const sentDocument = request.document ?? this.serverDocument;
    if (answer.kind === 'saved') {
      // The document as sent, not as answered: the two are equal, but the server's key order is its own.
      this.adoptServerCopy({ ...answer.copy, document: sentDocument });
      this.options.onSaved(answer.copy.saved);
      this.reconcile();
      return;
    }
    this.pendingSettings = { ...request.settings, ...this.pendingSettings };
    if (answer.kind === 'conflict') {
      // The copy that moved on may be one of our own saves whose answer was lost: then it is ours to build on.
      const theirDocument = answer.theirs.document;
      if ([sentDocument, ...this.unconfirmed].some((document) => sameDocument(document, theirDocument))) {
        this.adoptServerCopy(answer.theirs);
        this.options.onSaved(answer.theirs.saved);
        this.reconcile();
        return;
      }
      if (this.mergeTheirs(answer.theirs)) return;
      this.setStatus({ kind: 'conflict', theirs: answer.theirs });
      this.reconcile();
      return;
    }
    if (answer.kind === 'offline') {
      this.unconfirmed.push(sentDocument);
      this.setStatus({ kind: 'offline' });
      this.reconcile();
      if (this.currentStatus.kind === 'offline') this.schedule(offlineRetryMs);
      return;
    }
    this.setStatus({ kind: 'failed', message: answer.message });
    this.reconcile();
  }

  /**
   * Someone else saved meanwhile: merges their change into the editor's document and every undo
   * and redo snapshot, adopts their copy and saves the merge on top. False, changing nothing, when
   * the editor's document does not merge with theirs: then the user chooses.
   *
   * Undo undoes this person's edits only: their change is woven into every snapshot, so undo and
   * redo never take it back. When it cannot be woven into some older snapshot (an undone or redone
   * edit of the same value), the undo history is cleared instead: undo must never silently bring
   * back the value someone else overwrote.
   */
  private mergeTheirs(theirs: ServerCopy<Saved>): boolean {
    // Settings live outside the document and their base is unknown here: sending ours could undo theirs.
    if (this.settingsPending) return false;
    const base = this.mergeBase(theirs.document);
    const mergeWithTheirs = (document: EditorDocument) => {
      const result = mergeDocuments(base, document, theirs.document);
      return 'merged' in result ? result.merged : undefined;
    };
    this.rebasing = true;
    let merged: boolean;
    try {
      merged = this.options.editor.rebase(mergeWithTheirs);
      if (!merged) {
        const current = mergeWithTheirs(this.options.editor.getState().document);
        // Every snapshot becomes the merge: each step then changes nothing and is dropped.
        if (current) merged = this.options.editor.rebase(() => current);
      }
    } finally {
      this.rebasing = false;
    }
    if (!merged) return false;
    this.adoptServerCopy(theirs);
    this.options.onSaved(theirs.saved);
    this.setStatus({ kind: 'unsaved' });
    this.reconcile();
    void this.save();
    return true;
  }

  /** What their copy was built on (see `mergeBaseOf`). */
  private mergeBase(theirs: EditorDocument): EditorDocument {
    return mergeBaseOf(this.serverDocument, this.unconfirmed, theirs);
  }

  private adoptServerCopy(copy: { lockVersion: number; document: EditorDocument }): void {
    this.lockVersion = copy.lockVersion;
    this.serverDocument = copy.document;
    this.unconfirmed = [];
  }

  /** Whether the server holds this document for certain: no save whose answer was lost may have replaced it. */
  private serverSurelyHolds(document: EditorDocument): boolean {
    return this.unconfirmed.length === 0 && sameDocument(document, this.serverDocument);
  }

  /** A conflict or a restored draft waits for the user's choice: nothing is saved meanwhile. */
  private isBlocked(): boolean {
    return this.currentStatus.kind === 'conflict' || this.currentStatus.kind === 'restored_draft';
  }

  private schedule(delayMs: number): void {
    this.cancelTimer();
    this.timer = this.options.timers.set(() => {
      this.timer = null;
      void this.save();
    }, delayMs);
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.options.timers.clear(this.timer);
    this.timer = null;
  }

  private setStatus(status: SaveStatus<Saved>): void {
    const carriesData = 'theirs' in status || 'message' in status;
    if (status.kind === this.currentStatus.kind && !carriesData) return;
    this.currentStatus = status;
    for (const listener of [...this.listeners]) listener();
  }
}
