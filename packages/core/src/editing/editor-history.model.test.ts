import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PermissionKey, permissionKeys } from '../permissions.ts';
import { removeComponent, setPreheader, setSubject } from './commands.ts';
import type { EditorDocument } from './document.ts';
import { createEditor } from './editor.ts';
import { sampleDocument, sampleIds } from './sample-document.ts';

/**
 * The editor's undo history against a model of it, over generated orders of typing (which merges
 * into one step while the same text is edited quickly), assistant batches (always a step of their
 * own), refused batches, undo and redo, with a short history limit so that forgetting is exercised.
 */

type Field = 'subject' | 'preheader';
interface Texts {
  subject: string;
  preheader: string;
}

type Action =
  | { kind: 'type'; field: Field; text: string; afterMs: number }
  | { kind: 'batch'; edits: { field: Field; text: string }[]; afterMs: number }
  | { kind: 'refusedBatch'; edit: { field: Field; text: string }; afterMs: number }
  | { kind: 'undo' }
  | { kind: 'redo' };

const coalesceWindowMs = 1_000;
const historyLimit = 4;

const textArbitrary = fc.constantFrom('A', 'Ab', 'Abc', 'Hello', 'Read on', 'Sale');
const fieldArbitrary = fc.constantFrom<Field>('subject', 'preheader');
// Quick edits (within the window) and pauses (beyond it).
const gapArbitrary = fc.constantFrom(10, 400, 2_000);
const editArbitrary = fc.record({ field: fieldArbitrary, text: textArbitrary });

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('type'),
      field: fieldArbitrary,
      text: textArbitrary,
      afterMs: gapArbitrary,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('batch'),
      edits: fc.array(editArbitrary, { maxLength: 3 }),
      afterMs: gapArbitrary,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('refusedBatch'), edit: editArbitrary, afterMs: gapArbitrary }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'undo' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'redo' as const }) },
) as fc.Arbitrary<Action>;

/** The history as the editor promises it: steps of before and after, typing merged by field. */
class HistoryModel {
  texts: Texts;
  private undoSteps: { before: Texts; after: Texts; field: Field | null; lastEditAt: number }[] = [];
  private redoSteps: { before: Texts; after: Texts; field: Field | null; lastEditAt: number }[] = [];
  private lastStepOpen = false;

  constructor(texts: Texts) {
    this.texts = texts;
  }

  get canUndo() {
    return this.undoSteps.length > 0;
  }

  get canRedo() {
    return this.redoSteps.length > 0;
  }

  /** `field` null: a batch, which never merges with the step before it. */
  change(after: Texts, field: Field | null, at: number) {
    if (after.subject === this.texts.subject && after.preheader === this.texts.preheader) return;
    const last = this.undoSteps.at(-1);
    if (
      this.lastStepOpen &&
      last !== undefined &&
      field !== null &&
      last.field === field &&
      at - last.lastEditAt < coalesceWindowMs
    ) {
      last.after = after;
      last.lastEditAt = at;
    } else {
      this.undoSteps.push({ before: this.texts, after, field, lastEditAt: at });
      if (this.undoSteps.length > historyLimit) this.undoSteps.shift();
    }
    this.redoSteps = [];
    this.lastStepOpen = true;
    this.texts = after;
  }

  undo() {
    const step = this.undoSteps.pop();
    if (!step) return false;
    this.redoSteps.push(step);
    this.lastStepOpen = false;
    this.texts = step.before;
    return true;
  }

  redo() {
    const step = this.redoSteps.pop();
    if (!step) return false;
    this.undoSteps.push(step);
    this.lastStepOpen = false;
    this.texts = step.after;
    return true;
  }
}

function textsOf(document: EditorDocument): Texts {
  return {
    subject: document.content.subject.branch_content.null_branch?.['en-US'] ?? '',
    preheader: document.content.preheader.branch_content.null_branch?.['en-US'] ?? '',
  };
}

const commandFor = (edit: { field: Field; text: string }) =>
  edit.field === 'subject'
    ? setSubject('null_branch', 'en-US', edit.text)
    : setPreheader('null_branch', 'en-US', edit.text);

describe('the editor’s undo history (model-based)', () => {
  it('matches the model after every generated order of typing, batches, undo and redo', () => {
    fc.assert(
      fc.property(fc.array(actionArbitrary, { maxLength: 30 }), (actions) => {
        let clock = 0;
        const editor = createEditor({
          document: sampleDocument(),
          permissions: permissionKeys as readonly PermissionKey[],
          now: () => clock,
          coalesceWindowMs,
          historyLimit,
        });
        const model = new HistoryModel(textsOf(sampleDocument()));
        for (const action of actions) {
          switch (action.kind) {
            case 'type': {
              clock += action.afterMs;
              expect(editor.dispatch(commandFor(action))).toEqual({ ok: true });
              model.change({ ...model.texts, [action.field]: action.text }, action.field, clock);
              break;
            }
            case 'batch': {
              clock += action.afterMs;
              expect(editor.dispatchAll(action.edits.map(commandFor))).toEqual({ ok: true });
              const after = { ...model.texts };
              for (const edit of action.edits) after[edit.field] = edit.text;
              model.change(after, null, clock);
              break;
            }
            case 'refusedBatch': {
              // The second command cannot apply (no such component): nothing of the batch lands.
              clock += action.afterMs;
              const before = editor.getState();
              const result = editor.dispatchAll([
                commandFor(action.edit),
                removeComponent('not-in-the-email'),
              ]);
              expect(result.ok).toBe(false);
              expect(editor.getState()).toBe(before);
              break;
            }
            case 'undo':
              expect(editor.undo()).toBe(model.undo());
              break;
            case 'redo':
              expect(editor.redo()).toBe(model.redo());
              break;
          }
          const state = editor.getState();
          expect(textsOf(state.document)).toEqual(model.texts);
          expect({ canUndo: state.canUndo, canRedo: state.canRedo }).toEqual({
            canUndo: model.canUndo,
            canRedo: model.canRedo,
          });
          // The body is never touched by these edits: undo restores documents, not just texts.
          expect(state.document.content.component_instances.map((instance) => instance.id)).toContain(
            sampleIds.hero,
          );
        }
      }),
      { numRuns: 400 },
    );
  });
});
