import {
  applyCommand,
  createEditor,
  type Editor,
  type EditorDocument,
  type FieldTarget,
  sameDocument,
  setFieldValue,
} from '@letterset/core';
import { permissionKeys } from '@letterset/core/permissions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Autosave,
  mergeBaseOf,
  offlineRetryMs,
  type SaveAnswer,
  type SaveRequest,
  saveDelayMs,
  startingPoint,
} from './autosave.ts';
import type { StoredDraft } from './drafts.ts';
import { copyOf, type EditTarget } from './edit-target.ts';
import type { Email } from './editor-api.ts';
import { instanceId, testDocument } from './test-session.tsx';

/**
 * A model of the whole loop the editor's work goes through: a user editing, undoing and redoing,
 * the autosave, the browser's draft, a clock, the network and the server (with its lock_version
 * rule and other people's saves), and reloads of the page. fast-check generates the orders of
 * events; after every event and once everything has settled, the invariants below must hold.
 */

const field = (variable: string): FieldTarget => ({
  instanceId,
  branch: 'null_branch',
  locale: 'en-US',
  variable,
});

/** What the fake server does with the oldest request under way. */
type Answer =
  /** It applies the request by the lock_version rule: saved, or 409 when the copy moved on. */
  | 'ok'
  /**
   * Someone else saves first a value the user does not edit (as a translation job writes another
   * locale's values), so the request meets a newer copy: 409, which the autosave merges.
   */
  | 'someone_else_saved_first'
  /** Someone else saves first a change of the headline the user edits too: 409, a real conflict when the user's differs. */
  | 'someone_else_saved_same_value_first'
  /** The request never reaches the server. */
  | 'network_lost'
  /** The server applies the request, but its answer never reaches the browser. */
  | 'answer_lost'
  /** The server fails (a 500, or a 422 the editor could not foresee). */
  | 'server_error';

type Action =
  | { kind: 'edit'; variable: 'headline' | 'subtitle' }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'pause'; ms: number }
  | { kind: 'timer' }
  | { kind: 'answer'; answer: Answer }
  | { kind: 'reload'; requestsUnderWayLand: boolean }
  | { kind: 'choose'; keepMine: boolean }
  | { kind: 'retry' };

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('edit'), variable: fc.constantFrom('headline', 'subtitle') }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: 'undo' }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'redo' }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pause'), ms: fc.integer({ min: 50, max: 1500 }) }) },
  { weight: 4, arbitrary: fc.constant({ kind: 'timer' }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('answer'),
      answer: fc.constantFrom<Answer>(
        'ok',
        'ok',
        'someone_else_saved_first',
        'someone_else_saved_first',
        'someone_else_saved_same_value_first',
        'network_lost',
        'answer_lost',
        'server_error',
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reload'), requestsUnderWayLand: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('choose'), keepMine: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'retry' }) },
) as fc.Arbitrary<Action>;

class Clock {
  now = 0;
  private nextHandle = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  readonly timers = {
    set: (callback: () => void, delayMs: number) => {
      const handle = this.nextHandle++;
      this.pending.set(handle, { at: this.now + delayMs, callback });
      return handle;
    },
    clear: (handle: unknown) => {
      this.pending.delete(handle as number);
    },
  };

  get hasTimers(): boolean {
    return this.pending.size > 0;
  }

  /** Lets time pass up to the next timer and runs it. */
  fireNext(): void {
    const [handle, next] = [...this.pending].sort(([, a], [, b]) => a.at - b.at)[0] ?? [];
    if (handle === undefined || next === undefined) return;
    this.pending.delete(handle);
    this.now = Math.max(this.now, next.at);
    next.callback();
  }

  /** Lets `ms` pass, running the timers due meanwhile. */
  pass(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending.values()].filter((timer) => timer.at <= until);
      if (due.length === 0) break;
      this.fireNext();
    }
    this.now = until;
  }

  reset(): void {
    this.pending.clear();
  }
}

class FakeServer {
  document: EditorDocument;
  lockVersion = 1;
  requestsReceived = 0;
  private otherSaves = 0;
  /** Saves by someone else of the headline, which the user edits too. */
  sameValueSaves = 0;
  /** The last value someone else saved, by variable. */
  readonly theirLatest: Record<string, string> = {};
  readonly underWay: { request: SaveRequest; reply: (answer: SaveAnswer<EditTarget>) => void }[] = [];

  constructor(document: EditorDocument) {
    this.document = document;
  }

  copy() {
    return copyOf({ kind: 'email', email: this.email() });
  }

  private email(): Email {
    return {
      id: 1,
      lock_version: this.lockVersion,
      email_content: this.document.content,
      locales: this.document.locales,
      default_locale: this.document.defaultLocale,
    } as unknown as Email;
  }

  save(request: SaveRequest): Promise<SaveAnswer<EditTarget>> {
    this.requestsReceived++;
    return new Promise((reply) => this.underWay.push({ request, reply }));
  }

  /** The PATCH rule: a write based on another lock_version is refused with the current copy. */
  private apply(request: SaveRequest): SaveAnswer<EditTarget> {
    if (request.lockVersion !== this.lockVersion) return { kind: 'conflict', theirs: this.copy() };
    if (request.document) this.document = structuredClone(request.document);
    this.lockVersion++;
    return { kind: 'saved', copy: this.copy() };
  }

  /** Someone else's save: by default of a value the user never edits. */
  saveBySomeoneElse(variable: 'footnote' | 'headline' = 'footnote'): void {
    this.otherSaves++;
    if (variable === 'headline') this.sameValueSaves++;
    const value = `theirs ${this.otherSaves}`;
    this.theirLatest[variable] = value;
    this.document = applyCommand(this.document, setFieldValue(field(variable), value));
    this.lockVersion++;
  }

  answerOldest(answer: Answer): void {
    const oldest = this.underWay.shift();
    if (!oldest) return;
    if (answer === 'someone_else_saved_first') this.saveBySomeoneElse('footnote');
    if (answer === 'someone_else_saved_same_value_first') this.saveBySomeoneElse('headline');
    if (answer === 'network_lost') oldest.reply({ kind: 'offline' });
    else if (answer === 'server_error') oldest.reply({ kind: 'failed', message: 'Something went wrong' });
    else {
      const result = this.apply(oldest.request);
      oldest.reply(answer === 'answer_lost' ? { kind: 'offline' } : result);
    }
  }

  /** The page went away: its requests under way either reached the server or did not. */
  abandonRequestsUnderWay(land: boolean): void {
    for (const { request } of this.underWay.splice(0)) if (land) this.apply(request);
  }
}

/** The browser's localStorage for this email's draft. */
class MemoryDrafts {
  stored: StoredDraft | null = null;
  write(draft: StoredDraft) {
    this.stored = structuredClone(draft);
  }
  clear() {
    this.stored = null;
  }
}

/** One page load of the editor: what EmailEditor does on mount, minus React. */
interface Page {
  editor: Editor;
  autosave: Autosave<EditTarget>;
  stop: () => void;
}

class World {
  readonly clock = new Clock();
  readonly server = new FakeServer(testDocument());
  readonly drafts = new MemoryDrafts();
  page: Page;
  private edits = 0;
  /** How often the user chose to drop their changes for the server's copy. */
  discards = 0;
  /** How often the conflict dialog appeared. */
  conflictsShown = 0;
  /** Requests the server had when the current restored-draft question was asked. */
  private requestsAtQuestion = 0;
  readonly log: string[] = [];

  constructor() {
    this.page = this.open();
  }

  get document(): EditorDocument {
    return this.page.editor.getState().document;
  }

  open(): Page {
    const start = startingPoint(
      { document: this.server.copy().document, lockVersion: this.server.lockVersion },
      this.drafts.stored,
    );
    if (start.staleDraft) this.drafts.clear();
    const editor = createEditor({
      document: start.document,
      permissions: permissionKeys,
      now: () => this.clock.now,
    });
    const autosave = new Autosave({
      editor,
      server: start.server,
      restoredDraft: start.restoredDraft,
      drafts: this.drafts,
      save: (request) => this.server.save(request),
      onSaved: () => undefined,
      timers: this.clock.timers,
    });
    this.requestsAtQuestion = this.server.requestsReceived;
    autosave.subscribe(() => {
      if (autosave.status.kind === 'conflict') this.conflictsShown++;
    });
    return { editor, autosave, stop: autosave.start() };
  }

  /** Drops the page (its timers and answers die with it) and opens the editor again. */
  reopen(requestsUnderWayLand: boolean): void {
    this.page.stop();
    this.clock.reset();
    this.server.abandonRequestsUnderWay(requestsUnderWayLand);
    this.page = this.open();
  }

  async run(action: Action): Promise<void> {
    const before = valuesOf(this.document);
    await this.perform(action);
    const after = valuesOf(this.document);
    if (action.kind === 'edit' || action.kind === 'undo' || action.kind === 'redo') {
      // History holds their saves merged in: undo and redo never take them back.
      expect(after.footnote, 'undo and redo keep what someone else saved').toEqual(before.footnote);
    }
    if (action.kind === 'answer' && this.server.sameValueSaves === 0) {
      // Someone else only ever writes the footnote: merging it leaves the user's values alone.
      expect({ ...after, footnote: null }, 'a merge keeps the user’s values').toEqual({
        ...before,
        footnote: null,
      });
      if (action.answer === 'someone_else_saved_first') {
        expect(this.page.autosave.status.kind, 'a save of other values is merged, not asked about').not.toBe(
          'conflict',
        );
        expect(after.footnote, 'their value is in the editor').toEqual(
          valuesOf(this.server.document).footnote,
        );
      }
    }
  }

  private async perform(action: Action): Promise<void> {
    this.log.push(JSON.stringify(action));
    const { editor, autosave } = this.page;
    switch (action.kind) {
      case 'edit':
        this.edits++;
        editor.dispatch(setFieldValue(field(action.variable), `mine ${this.edits}`));
        break;
      case 'undo':
        editor.undo();
        break;
      case 'redo':
        editor.redo();
        break;
      case 'pause':
        this.clock.pass(action.ms);
        break;
      case 'timer':
        this.clock.fireNext();
        break;
      case 'answer':
        this.server.answerOldest(action.answer);
        break;
      case 'reload': {
        const lastSeen = valuesOf(this.document);
        const draft = this.drafts.stored;
        this.reopen(action.requestsUnderWayLand);
        // A reload shows what the user saw before it, from the draft or the server; a value someone
        // else saved meanwhile shows too where the user had not changed it (a three-way merge).
        const reloaded = valuesOf(this.document);
        const server = valuesOf(this.server.document);
        const base = draft?.base
          ? valuesOf(mergeBaseOf(draft.base, draft.unconfirmed ?? [], this.server.document))
          : lastSeen;
        for (const key of ['headline', 'subtitle', 'footnote'] as const) {
          const shown =
            reloaded[key] === lastSeen[key] || (reloaded[key] === server[key] && lastSeen[key] === base[key]);
          expect(
            shown,
            `the reloaded editor shows the ${key} the user last saw, or a newer one of theirs`,
          ).toBe(true);
        }
        break;
      }
      case 'choose':
        this.choose(action.keepMine);
        break;
      case 'retry':
        if (autosave.status.kind === 'failed') autosave.retry();
        break;
    }
    await flushPromises();
  }

  /** Answers the dialog on screen, if any, the way the user picked. */
  choose(keepMine: boolean): void {
    const { autosave } = this.page;
    const status = autosave.status;
    if (status.kind === 'conflict') {
      if (keepMine) autosave.overwrite(status.theirs);
      else this.startOverFromServer();
    } else if (status.kind === 'restored_draft') {
      if (keepMine) autosave.keepRestoredDraft();
      else this.startOverFromServer();
    }
  }

  /** "Reload theirs" and "Discard my changes": the editor starts again from the server's copy. */
  private startOverFromServer(): void {
    this.discards++;
    this.page.autosave.discardChanges();
    this.clock.reset();
    this.page = this.open();
  }

  /** The invariants that hold after every event. */
  checkInvariants(): void {
    const { status } = this.page.autosave;
    const draft = this.drafts.stored;
    const requestsUnderWay = this.server.underWay.map(({ request }) => request.document);
    if (draft) {
      expect(sameDocument(draft.document, this.document), 'the draft holds what the user sees').toBe(true);
    } else {
      // Without a draft, a reload shows the server's copy: it must be what the user sees,
      // whatever the requests under way do when they land.
      expect(sameDocument(this.server.document, this.document), 'the server holds what the user sees').toBe(
        true,
      );
      for (const document of requestsUnderWay) {
        if (document)
          expect(sameDocument(document, this.document), 'a save under way would not change it').toBe(true);
      }
    }
    if (status.kind === 'saved') {
      expect(draft, 'Saved leaves no draft behind').toBeNull();
      expect(requestsUnderWay, 'Saved means no save under way').toEqual([]);
      expect(sameDocument(this.server.document, this.document), 'Saved means the server has it').toBe(true);
    }
    if (status.kind === 'restored_draft') {
      expect(this.server.requestsReceived, 'a restored draft is never saved before the user chooses').toBe(
        this.requestsAtQuestion,
      );
    }
  }

  /** Everything the user and the network still owe: the user answers dialogs, the server says ok. */
  async settle(keepMine: boolean): Promise<void> {
    for (let round = 0; round < 50; round++) {
      const { status } = this.page.autosave;
      if (status.kind === 'conflict' || status.kind === 'restored_draft') this.choose(keepMine);
      else if (status.kind === 'failed') this.page.autosave.retry();
      else if (this.server.underWay.length > 0) this.server.answerOldest('ok');
      else if (this.clock.hasTimers) this.clock.fireNext();
      else return;
      await flushPromises();
      this.checkInvariants();
    }
    throw new Error(`The autosave did not settle: ${this.page.autosave.status.kind}`);
  }
}

/** The values the model's people write: the user's headline and subtitle, someone else's footnote (and headline). */
function valuesOf(document: EditorDocument): Record<'headline' | 'subtitle' | 'footnote', unknown> {
  const values = document.content.component_instances[0]?.field_values.null_branch?.['en-US'];
  return {
    headline: values?.headline?.value ?? null,
    subtitle: values?.subtitle?.value ?? null,
    footnote: values?.footnote?.value ?? null,
  };
}

/** Lets the promise callbacks of answered saves run. */
async function flushPromises(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
}

/** Runs one generated sequence of events, lets everything settle, and checks where it all ended. */
async function checkModel(actions: Action[], keepMine: boolean): Promise<void> {
  const world = new World();
  for (const action of actions) {
    await world.run(action);
    world.checkInvariants();
  }
  const lastSeen = world.document;
  const discardsBefore = world.discards;
  await world.settle(keepMine);

  expect(world.page.autosave.status.kind).toBe('saved');
  expect(world.drafts.stored).toBeNull();
  expect(sameDocument(world.server.document, world.document)).toBe(true);
  // Unless the user chose to drop them, the user's last changes are what the server keeps.
  if (world.discards === discardsBefore) expect(sameDocument(world.document, lastSeen)).toBe(true);
  if (world.server.sameValueSaves === 0) {
    // Other people only saved values the user was not editing: never a dialog, and the server
    // holds both their last value and the user's.
    expect(world.conflictsShown, 'no conflict dialog').toBe(0);
    expect(valuesOf(world.server.document).footnote).toEqual(world.server.theirLatest.footnote ?? null);
  }
  // Reloading now shows the same email, with nothing to restore.
  world.reopen(false);
  expect(world.page.autosave.status.kind).toBe('saved');
  expect(sameDocument(world.document, world.server.document)).toBe(true);
}

describe('autosave, model-based', () => {
  it('keeps the server, the draft, the status and a reloaded editor in agreement, in any order of events', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArbitrary, { maxLength: 40 }), fc.boolean(), checkModel),
      { numRuns: 1500 },
    );
  });

  it('does so over long sessions, where other people’s saves meet edits, undos, lost answers and reloads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(actionArbitrary, { minLength: 20, maxLength: 60, size: 'max' }),
        fc.boolean(),
        checkModel,
      ),
      { numRuns: 400 },
    );
  });
});

describe('autosave, the sequences users reported', () => {
  it('undo then redo back to the saved copy clears the draft and says Saved, so a reload keeps the headline', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'ok' });
    expect(world.page.autosave.status.kind).toBe('saved');
    const withHeadline = world.document;

    await world.run({ kind: 'undo' });
    expect(world.drafts.stored).not.toBeNull();
    await world.run({ kind: 'pause', ms: saveDelayMs / 2 });
    await world.run({ kind: 'redo' });
    expect(world.page.autosave.status.kind).toBe('saved');
    expect(world.drafts.stored).toBeNull();

    await world.run({ kind: 'reload', requestsUnderWayLand: false });
    expect(world.page.autosave.status.kind).toBe('saved');
    expect(sameDocument(world.document, withHeadline)).toBe(true);
  });

  it('asks before saving a restored draft that differs from the server, and saves nothing until asked', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'timer' });
    // The save never arrives; the page is reloaded while someone else changes the same headline.
    await world.run({ kind: 'reload', requestsUnderWayLand: false });
    expect(world.page.autosave.status.kind).toBe('restored_draft');
    world.server.saveBySomeoneElse('headline');
    world.clock.pass(offlineRetryMs * 3);
    await flushPromises();
    expect(world.server.requestsReceived).toBe(1);

    world.choose(true);
    await flushPromises();
    world.server.answerOldest('ok');
    await flushPromises();
    // Keeping the draft is a conscious overwrite: it is sent with the copy the editor opened, and
    // meets the other person's headline as a conflict, shown rather than lost.
    expect(world.page.autosave.status.kind).toBe('conflict');
  });

  it('merges a kept draft with a save of other values made since the page opened', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'reload', requestsUnderWayLand: false });
    expect(world.page.autosave.status.kind).toBe('restored_draft');
    world.server.saveBySomeoneElse('footnote');
    world.choose(true);
    await flushPromises();
    world.server.answerOldest('ok');
    await flushPromises();
    await world.settle(true);
    expect(world.conflictsShown).toBe(0);
    expect(valuesOf(world.server.document)).toEqual({
      headline: 'mine 1',
      subtitle: null,
      footnote: 'theirs 1',
    });
  });

  it('undoing after a save whose answer was lost keeps a draft and saves the undone copy', async () => {
    const world = new World();
    const original = world.document;
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'answer_lost' });
    await world.run({ kind: 'undo' });
    // The server may hold the edit, so the undone copy is not "Saved" yet.
    expect(world.page.autosave.status.kind).not.toBe('saved');
    expect(world.drafts.stored).not.toBeNull();
    await world.settle(true);
    expect(sameDocument(world.server.document, original)).toBe(true);
  });

  it('a save whose answer was lost is recognised as ours when the server then says 409', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'answer_lost' });
    expect(world.page.autosave.status.kind).toBe('offline');
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'ok' });
    expect(world.page.autosave.status.kind).toBe('saved');
    expect(world.drafts.stored).toBeNull();
  });

  it('merges a save of other values by someone else, saves the merge and shows no dialog; undo keeps their value', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'pause', ms: 2000 });
    await world.run({ kind: 'answer', answer: 'ok' });
    await world.run({ kind: 'edit', variable: 'subtitle' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'someone_else_saved_first' });
    expect(world.conflictsShown).toBe(0);
    expect(valuesOf(world.document)).toEqual({
      headline: 'mine 1',
      subtitle: 'mine 2',
      footnote: 'theirs 1',
    });
    // The merge goes out at once, on top of their copy.
    expect(world.page.autosave.status.kind).toBe('saving');
    await world.run({ kind: 'answer', answer: 'ok' });
    expect(world.page.autosave.status.kind).toBe('saved');
    expect(valuesOf(world.server.document)).toEqual({
      headline: 'mine 1',
      subtitle: 'mine 2',
      footnote: 'theirs 1',
    });

    await world.run({ kind: 'undo' });
    await world.run({ kind: 'undo' });
    expect(valuesOf(world.document)).toEqual({ headline: null, subtitle: null, footnote: 'theirs 1' });
    await world.settle(true);
    expect(valuesOf(world.server.document)).toEqual({ headline: null, subtitle: null, footnote: 'theirs 1' });
  });

  it('still asks when someone else saved a different headline than the user’s', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'someone_else_saved_same_value_first' });
    expect(world.page.autosave.status.kind).toBe('conflict');
    expect(valuesOf(world.server.document).headline).toBe('theirs 1');
    expect(valuesOf(world.document).headline).toBe('mine 1');
  });

  it('takes a headline someone else saved when the user had not changed it', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'subtitle' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'someone_else_saved_same_value_first' });
    expect(world.conflictsShown).toBe(0);
    await world.settle(true);
    expect(valuesOf(world.server.document)).toEqual({
      headline: 'theirs 1',
      subtitle: 'mine 1',
      footnote: null,
    });
  });

  it('builds on a lost save of ours that landed before theirs, so an undo of it is not brought back', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'timer' });
    // The headline lands, but its answer is lost; the user then undoes it.
    await world.run({ kind: 'answer', answer: 'answer_lost' });
    await world.run({ kind: 'undo' });
    await world.run({ kind: 'timer' });
    // Someone else saves the footnote on top of the landed headline.
    await world.run({ kind: 'answer', answer: 'someone_else_saved_first' });
    expect(world.conflictsShown).toBe(0);
    expect(valuesOf(world.document)).toEqual({ headline: null, subtitle: null, footnote: 'theirs 1' });
    await world.settle(true);
    expect(valuesOf(world.server.document)).toEqual({ headline: null, subtitle: null, footnote: 'theirs 1' });
  });

  it('builds on the lost save that landed, not on a later lost one that changed nothing', async () => {
    const world = new World();
    await world.run({ kind: 'edit', variable: 'headline' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'answer_lost' });
    await world.run({ kind: 'undo' });
    // The undone copy is sent, meets the landed headline as a 409, and that answer is lost too.
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'answer_lost' });
    await world.run({ kind: 'timer' });
    await world.run({ kind: 'answer', answer: 'someone_else_saved_first' });
    expect(world.conflictsShown).toBe(0);
    expect(valuesOf(world.document)).toEqual({ headline: null, subtitle: null, footnote: 'theirs 1' });
    await world.settle(true);
    expect(valuesOf(world.server.document)).toEqual({ headline: null, subtitle: null, footnote: 'theirs 1' });
  });
});

describe('autosave, conflicts that still need the user', () => {
  it('asks when a settings change is part of the save, since their settings cannot be merged', async () => {
    const world = new World();
    world.page.autosave.saveSettings({ brand_profile_id: 2 });
    await flushPromises();
    world.server.answerOldest('someone_else_saved_first');
    await flushPromises();
    expect(world.page.autosave.status.kind).toBe('conflict');
  });

  it('shows the dialog when someone else changed the headline the user changed, whatever happened before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArbitrary, { maxLength: 30 }), async (actions) => {
        const world = new World();
        for (const action of actions) await world.run(action);
        await world.settle(true);
        const otherSavesBefore = world.server.sameValueSaves;
        await world.run({ kind: 'edit', variable: 'headline' });
        const mine = valuesOf(world.document).headline;
        await world.run({ kind: 'timer' });
        await world.run({ kind: 'answer', answer: 'someone_else_saved_same_value_first' });
        expect(world.server.sameValueSaves).toBe(otherSavesBefore + 1);
        expect(world.page.autosave.status.kind).toBe('conflict');
        expect(valuesOf(world.server.document).headline).not.toBe(mine);
        // Overwriting with mine then saves the user's headline.
        await world.settle(true);
        expect(valuesOf(world.server.document).headline).toBe(mine);
      }),
      { numRuns: 300 },
    );
  });
});

describe('startingPoint, drafts bound to a tab and to the version they were made on', () => {
  const withValue = (document: EditorDocument, variable: string, value: string) =>
    applyCommand(document, setFieldValue(field(variable), value));
  const base = testDocument();
  const server = { document: base, lockVersion: 1 };

  it('drops a draft whose changes the server already holds, even merged with newer saves', () => {
    const draft = { lockVersion: 1, base, document: withValue(base, 'headline', 'mine') };
    const newer = withValue(draft.document, 'footnote', 'theirs');
    const start = startingPoint({ document: newer, lockVersion: 3 }, draft);
    expect(start).toMatchObject({ staleDraft: true, restoredDraft: false, draftSource: null });
    expect(sameDocument(start.document, newer)).toBe(true);
  });

  it('offers this tab’s draft merged onto a newer copy, built on that copy', () => {
    const draft = { lockVersion: 1, base, document: withValue(base, 'headline', 'mine'), writtenAt: 5 };
    const newer = withValue(base, 'footnote', 'theirs');
    const start = startingPoint({ document: newer, lockVersion: 2 }, draft);
    expect(start).toMatchObject({ restoredDraft: true, draftSource: 'this_tab', draftWrittenAt: 5 });
    expect(start.server.lockVersion).toBe(2);
    expect(valuesOf(start.document)).toMatchObject({ headline: 'mine', footnote: 'theirs' });
  });

  it('builds a draft that changed the same value as a newer save on the version it was made on, so keeping it meets the newer one', () => {
    const draft = { lockVersion: 1, base, document: withValue(base, 'headline', 'mine') };
    const newer = withValue(base, 'headline', 'theirs');
    const start = startingPoint({ document: newer, lockVersion: 2 }, draft);
    expect(start.restoredDraft).toBe(true);
    expect(start.server).toEqual({ document: base, lockVersion: 1 });
    expect(valuesOf(start.document).headline).toBe('mine');
  });

  it('offers the newest draft a closed tab left behind only when this tab has none, and forgets the ones the server holds', () => {
    const held = { lockVersion: 1, base, document: base, writtenAt: 9 };
    const older = { lockVersion: 1, base, document: withValue(base, 'subtitle', 'older'), writtenAt: 1 };
    const newest = { lockVersion: 1, base, document: withValue(base, 'subtitle', 'newest'), writtenAt: 7 };
    const start = startingPoint(server, null, [held, newest, older]);
    expect(start).toMatchObject({
      restoredDraft: true,
      draftSource: 'another_tab',
      leftBehindToRemove: [0, 1],
    });
    expect(valuesOf(start.document).subtitle).toBe('newest');

    const own = { lockVersion: 1, base, document: withValue(base, 'headline', 'mine') };
    expect(startingPoint(server, own, [newest])).toMatchObject({
      draftSource: 'this_tab',
      leftBehindToRemove: [],
    });
  });
});
