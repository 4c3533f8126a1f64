import type { PermissionKey } from '../permissions.ts';
import { applyCommand, applyCommands } from './apply-command.ts';
import {
  commandPermissions,
  type EditorCommand,
  type EditorCommandType,
  type FieldTarget,
  permissionFor,
} from './commands.ts';
import { type EditorDocument, InvalidCommandError, sameDocument } from './document.ts';

export type DispatchResult =
  | { ok: true }
  | { ok: false; reason: 'permission'; permission: PermissionKey }
  | { ok: false; reason: 'invalid'; message: string };

/** One snapshot of what a view needs; a new object only when something changed (for useSyncExternalStore). */
export interface EditorState {
  document: EditorDocument;
  canUndo: boolean;
  canRedo: boolean;
}

export interface EditorOptions {
  document: EditorDocument;
  /** The keys the user's role grants; commands needing any other key are refused. */
  permissions: Iterable<PermissionKey>;
  /** Milliseconds clock; injectable so tests control coalescing. Defaults to Date.now. */
  now?: () => number;
  /** Edits of the same text less than this far apart are one undo step. */
  coalesceWindowMs?: number;
  /** Undo steps kept; the oldest are forgotten beyond it. */
  historyLimit?: number;
}

export interface Editor {
  getState(): EditorState;
  dispatch(command: EditorCommand): DispatchResult;
  /**
   * Several commands as ONE undo step (an assistant's edits, applied together): each must be
   * allowed and fit the document as the ones before it left it, else nothing changes and the
   * first refusal is reported. Never merges with the step before or after it.
   */
  dispatchAll(commands: readonly EditorCommand[]): DispatchResult;
  /** Returns false when there is nothing to undo. */
  undo(): boolean;
  /** Returns false when there is nothing to redo. */
  redo(): boolean;
  /** Whether the user may dispatch commands of this type, so the view can hide what they cannot use. */
  can(commandType: EditorCommandType): boolean;
  /**
   * Rewrites the document and every undo and redo snapshot with `transform`, without an undo step
   * of its own: for changes someone else saved meanwhile (merged into each snapshot), so that undo
   * and redo never take them back. All or nothing: when `transform` returns undefined for any
   * snapshot, nothing changes and it returns false.
   */
  rebase(transform: (document: EditorDocument) => EditorDocument | undefined): boolean;
  /** Calls `listener` after every change of state; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
}

export const defaultCoalesceWindowMs = 1000;
export const defaultHistoryLimit = 200;

/** One undo step: the document before and after it, and what later edits may merge into it. */
interface HistoryStep {
  before: EditorDocument;
  after: EditorDocument;
  coalesceKey: string | null;
  lastEditAt: number;
}

/**
 * Text edits that may merge into one undo step: the same field value, subject or preheader text,
 * instance name or link tracking parameter, so undo takes back a burst of typing rather than one
 * keystroke. Structure changes never merge.
 */
function coalesceKeyOf(command: EditorCommand): string | null {
  const fieldAddress = (target: FieldTarget) => [
    target.instanceId,
    target.branch,
    target.locale,
    target.variable,
  ];
  switch (command.type) {
    case 'setFieldValue':
      return JSON.stringify([command.type, ...fieldAddress(command)]);
    case 'setLinkTrackingParameter':
      return JSON.stringify([command.type, ...fieldAddress(command), command.parameter]);
    case 'setSubject':
    case 'setPreheader':
      return JSON.stringify([command.type, command.branch, command.locale]);
    case 'renameComponent':
      return JSON.stringify([command.type, command.instanceId]);
    case 'setGlobalLinkTrackingParameter':
      return JSON.stringify([command.type, command.parameter]);
    default:
      return null;
  }
}

/**
 * The editor's state holder: applies commands the user is allowed to run, keeps undo and redo
 * history, and tells subscribers when anything changed. History holds whole documents, which
 * costs little because `applyCommand` shares every unchanged part.
 */
export function createEditor(options: EditorOptions): Editor {
  const permissions = new Set(options.permissions);
  const now = options.now ?? (() => Date.now());
  const coalesceWindowMs = options.coalesceWindowMs ?? defaultCoalesceWindowMs;
  const historyLimit = options.historyLimit ?? defaultHistoryLimit;
  const listeners = new Set<() => void>();
  const undoStack: HistoryStep[] = [];
  const redoStack: HistoryStep[] = [];
  // Undo and redo close the last step, so the next edit starts a step of its own.
  let lastStepOpen = false;
  let state: EditorState = { document: options.document, canUndo: false, canRedo: false };

  function commit(document: EditorDocument): void {
    state = { document, canUndo: undoStack.length > 0, canRedo: redoStack.length > 0 };
    for (const listener of [...listeners]) listener();
  }

  function record(before: EditorDocument, after: EditorDocument, command: EditorCommand | null): void {
    const coalesceKey = command === null ? null : coalesceKeyOf(command);
    const at = now();
    const last = undoStack.at(-1);
    const merges =
      lastStepOpen &&
      last !== undefined &&
      coalesceKey !== null &&
      last.coalesceKey === coalesceKey &&
      at - last.lastEditAt < coalesceWindowMs;
    if (merges) {
      undoStack[undoStack.length - 1] = { ...last, after, lastEditAt: at };
    } else {
      undoStack.push({ before, after, coalesceKey, lastEditAt: at });
      if (undoStack.length > historyLimit) undoStack.shift();
    }
    redoStack.length = 0;
    lastStepOpen = true;
  }

  /** Undo and redo: move the latest step from one stack to the other and show one side of it. */
  function moveStep(
    from: HistoryStep[],
    to: HistoryStep[],
    documentAfterMove: (step: HistoryStep) => EditorDocument,
  ): boolean {
    const step = from.pop();
    if (step === undefined) return false;
    to.push(step);
    lastStepOpen = false;
    commit(documentAfterMove(step));
    return true;
  }

  return {
    getState: () => state,

    dispatch(command) {
      const permission = permissionFor(command);
      if (!permissions.has(permission)) return { ok: false, reason: 'permission', permission };
      let next: EditorDocument;
      try {
        next = applyCommand(state.document, command);
      } catch (error) {
        if (error instanceof InvalidCommandError)
          return { ok: false, reason: 'invalid', message: error.message };
        throw error;
      }
      // A command that changes nothing is not worth an undo step, nor a re-render.
      if (next === state.document) return { ok: true };
      record(state.document, next, command);
      commit(next);
      return { ok: true };
    },

    dispatchAll(commands) {
      for (const command of commands) {
        const permission = permissionFor(command);
        if (!permissions.has(permission)) return { ok: false, reason: 'permission', permission };
      }
      let next: EditorDocument;
      try {
        next = applyCommands(state.document, commands);
      } catch (error) {
        if (error instanceof InvalidCommandError)
          return { ok: false, reason: 'invalid', message: error.message };
        throw error;
      }
      // Edits that cancel out (A then back) leave a new but equal document: no step that undoes nothing.
      if (sameDocument(next, state.document)) return { ok: true };
      // No coalescing key: the batch is a step of its own, and later typing starts another.
      record(state.document, next, null);
      commit(next);
      return { ok: true };
    },

    undo: () => moveStep(undoStack, redoStack, (step) => step.before),
    redo: () => moveStep(redoStack, undoStack, (step) => step.after),

    can: (commandType) => permissions.has(commandPermissions[commandType]),

    rebase(transform) {
      // Steps share their documents (one step's after is the next one's before): transform each once.
      const rebased = new Map<EditorDocument, EditorDocument | undefined>();
      const rebase = (document: EditorDocument) => {
        if (!rebased.has(document)) rebased.set(document, transform(document));
        return rebased.get(document);
      };
      const rebaseSteps = (steps: HistoryStep[]): HistoryStep[] | undefined => {
        const result: HistoryStep[] = [];
        for (const step of steps) {
          const before = rebase(step.before);
          const after = rebase(step.after);
          if (before === undefined || after === undefined) return undefined;
          // A step whose change the other side made too no longer changes anything: undo would seem stuck.
          if (!sameDocument(before, after)) result.push({ ...step, before, after });
        }
        return result;
      };
      const document = rebase(state.document);
      const undoSteps = rebaseSteps(undoStack);
      const redoSteps = rebaseSteps(redoStack);
      if (document === undefined || undoSteps === undefined || redoSteps === undefined) return false;
      const original = [...undoStack, ...redoStack];
      const rewritten = [...undoSteps, ...redoSteps];
      const unchanged =
        document === state.document &&
        rewritten.length === original.length &&
        rewritten.every(
          (step, index) => step.before === original[index]?.before && step.after === original[index]?.after,
        );
      if (unchanged) return true;
      undoStack.splice(0, undoStack.length, ...undoSteps);
      redoStack.splice(0, redoStack.length, ...redoSteps);
      commit(document);
      return true;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
