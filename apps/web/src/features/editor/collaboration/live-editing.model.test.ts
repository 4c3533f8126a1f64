import {
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
import { Autosave, type SaveAnswer, type SaveRequest, type ServerCopy, startingPoint } from '../autosave.ts';
import type { StoredDraft } from '../drafts.ts';
import { copyOf, type EditTarget } from '../edit-target.ts';
import type { Email } from '../editor-api.ts';
import { instanceId, testDocument } from '../test-session.tsx';

/**
 * A model of two editors on one email in one browser (two tabs, sharing localStorage), a model
 * server with the lock_version rule and its event stream, driving the real Autosave and
 * startingPoint. Tab A's person edits the headline, tab B's the subtitle: they never touch the same
 * value, so nothing ever needs a dialog. fast-check generates the orders of local edits, undos,
 * saves (answered, slow, failing, lost, or landing without an answer), announcements (delivered,
 * duplicated, out of order, or missed and then resynced), fetches, reloads and tab closes.
 *
 * Invariants: a tab never shows or keeps in its draft a value of the other tab's that the server
 * never held (no edit is attributed to the wrong tab); no edit is lost (once quiet, the server
 * holds each person's last value, unless they discarded it); and once quiet both editors show the
 * server's document, say Saved and keep no draft.
 */

type TabName = 'A' | 'B';
const tabNames: TabName[] = ['A', 'B'];
const variableOf: Record<TabName, 'headline' | 'subtitle'> = { A: 'headline', B: 'subtitle' };

const field = (variable: string): FieldTarget => ({
  instanceId,
  branch: 'null_branch',
  locale: 'en-US',
  variable,
});

type SaveOutcome = 'ok' | 'network_lost' | 'answer_lost' | 'server_error';

type Action =
  | { kind: 'edit'; tab: TabName }
  | { kind: 'undo'; tab: TabName }
  | { kind: 'redo'; tab: TabName }
  | { kind: 'timer'; tab: TabName }
  | { kind: 'answer'; tab: TabName; outcome: SaveOutcome }
  | { kind: 'answer_fetch'; tab: TabName }
  | { kind: 'deliver'; tab: TabName }
  | { kind: 'deliver_twice'; tab: TabName }
  | { kind: 'deliver_out_of_order'; tab: TabName }
  | { kind: 'miss'; tab: TabName }
  | { kind: 'reconnect'; tab: TabName }
  | { kind: 'reload'; tab: TabName; requestsLand: boolean }
  | { kind: 'close_and_reopen'; tab: TabName; requestsLand: boolean }
  | { kind: 'choose'; tab: TabName; keep: boolean }
  | { kind: 'retry'; tab: TabName };

const tab = fc.constantFrom<TabName>('A', 'B');
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('edit' as const), tab }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const), tab }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redo' as const), tab }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('timer' as const), tab }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      tab,
      outcome: fc.constantFrom<SaveOutcome>('ok', 'ok', 'ok', 'network_lost', 'answer_lost', 'server_error'),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('answer_fetch' as const), tab }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('deliver' as const), tab }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deliver_twice' as const), tab }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deliver_out_of_order' as const), tab }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('miss' as const), tab }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconnect' as const), tab }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('reload' as const), tab, requestsLand: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('close_and_reopen' as const), tab, requestsLand: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('choose' as const), tab, keep: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), tab }) },
);

class ModelServer {
  document = testDocument();
  lockVersion = 1;
  /** Every value each variable ever had on the server. */
  readonly held = { headline: new Set<unknown>([null]), subtitle: new Set<unknown>([null]) };
  /** Each tab's event stream: the lock_versions announced and not yet delivered. */
  readonly streams: Record<TabName, number[]> = { A: [], B: [] };

  copy(): ServerCopy<EditTarget> {
    const email = {
      id: 1,
      lock_version: this.lockVersion,
      email_content: this.document.content,
      locales: this.document.locales,
      default_locale: this.document.defaultLocale,
    } as unknown as Email;
    return copyOf({ kind: 'email', email });
  }

  /** The PATCH rule, and the announcement of every save to every tab's stream. */
  apply(request: SaveRequest): SaveAnswer<EditTarget> {
    if (request.lockVersion !== this.lockVersion) return { kind: 'conflict', theirs: this.copy() };
    if (request.document) this.document = structuredClone(request.document);
    this.lockVersion++;
    const values = valuesOf(this.document);
    this.held.headline.add(values.headline);
    this.held.subtitle.add(values.subtitle);
    for (const name of tabNames) this.streams[name].push(this.lockVersion);
    return { kind: 'saved', copy: this.copy() };
  }
}

/** One page load of the editor in one tab. */
interface Page {
  editor: Editor;
  autosave: Autosave<EditTarget>;
  stop: () => void;
  saves: { request: SaveRequest; reply: (answer: SaveAnswer<EditTarget>) => void }[];
  fetches: ((copy: ServerCopy<EditTarget> | null) => void)[];
  timers: Map<number, () => void>;
  /** The stream dropped an announcement: the next reconnection hands over a resync. */
  missed: boolean;
}

class World {
  readonly server = new ModelServer();
  /** The browser's localStorage: each tab's draft under its tab id. */
  readonly storage = new Map<string, StoredDraft>();
  readonly tabIds: Record<TabName, string> = { A: 'tab-A-1', B: 'tab-B-1' };
  readonly pages: Record<TabName, Page>;
  readonly discarded: Record<TabName, boolean> = { A: false, B: false };
  conflictsShown = 0;
  private edits = 0;
  private nextTimer = 1;
  private tabsOpened = 2;
  readonly log: string[] = [];

  constructor() {
    this.pages = { A: this.open('A'), B: this.open('B') };
  }

  open(name: TabName): Page {
    const id = this.tabIds[name];
    const otherId = this.tabIds[name === 'A' ? 'B' : 'A'];
    // Drafts of tabs that are gone: any under an id no open tab has.
    const leftBehindIds = [...this.storage.keys()].filter((key) => key !== id && key !== otherId);
    const start = startingPoint(
      { document: this.server.copy().document, lockVersion: this.server.lockVersion },
      this.storage.get(id) ?? null,
      leftBehindIds.map((key) => this.storage.get(key) as StoredDraft),
    );
    if (start.staleDraft) this.storage.delete(id);
    for (const index of start.leftBehindToRemove) this.storage.delete(leftBehindIds[index] as string);
    const editor = createEditor({ document: start.document, permissions: permissionKeys });
    const page: Page = {
      editor,
      autosave: undefined as unknown as Autosave<EditTarget>,
      stop: () => undefined,
      saves: [],
      fetches: [],
      timers: new Map(),
      missed: false,
    };
    page.autosave = new Autosave<EditTarget>({
      editor,
      server: start.server,
      restoredDraft: start.restoredDraft,
      drafts: {
        write: (draft) => this.storage.set(id, structuredClone(draft)),
        clear: () => this.storage.delete(id),
      },
      save: (request) => new Promise((reply) => page.saves.push({ request, reply })),
      onSaved: () => undefined,
      fetchLatest: () => new Promise((answer) => page.fetches.push(answer)),
      timers: {
        set: (callback) => {
          const handle = this.nextTimer++;
          page.timers.set(handle, callback);
          return handle;
        },
        clear: (handle) => {
          page.timers.delete(handle as number);
        },
      },
    });
    page.autosave.subscribe(() => {
      if (page.autosave.status.kind === 'conflict') this.conflictsShown++;
    });
    page.stop = page.autosave.start();
    // A new page subscribes afresh: earlier announcements are not its to hear.
    this.server.streams[name] = [];
    return page;
  }

  /** The page goes away: its timers and answers die with it, its requests under way land or not. */
  private leave(name: TabName, requestsLand: boolean): void {
    const page = this.pages[name];
    page.stop();
    for (const { request } of page.saves.splice(0)) if (requestsLand) this.server.apply(request);
  }

  async run(action: Action): Promise<void> {
    this.log.push(JSON.stringify(action));
    const page = this.pages[action.tab];
    const stream = this.server.streams[action.tab];
    switch (action.kind) {
      case 'edit':
        this.edits++;
        page.editor.dispatch(setFieldValue(field(variableOf[action.tab]), `${action.tab} ${this.edits}`));
        break;
      case 'undo':
        page.editor.undo();
        break;
      case 'redo':
        page.editor.redo();
        break;
      case 'timer': {
        const [handle, callback] = [...page.timers][0] ?? [];
        if (handle !== undefined && callback) {
          page.timers.delete(handle);
          callback();
        }
        break;
      }
      case 'answer': {
        const save = page.saves.shift();
        if (!save) break;
        if (action.outcome === 'network_lost') save.reply({ kind: 'offline' });
        else if (action.outcome === 'server_error')
          save.reply({ kind: 'failed', message: 'Something went wrong' });
        else {
          const answer = this.server.apply(save.request);
          save.reply(action.outcome === 'answer_lost' ? { kind: 'offline' } : answer);
        }
        break;
      }
      case 'answer_fetch':
        page.fetches.shift()?.(this.server.copy());
        break;
      case 'deliver': {
        const lockVersion = stream.shift();
        if (lockVersion !== undefined) page.autosave.announced(lockVersion);
        break;
      }
      case 'deliver_twice': {
        const lockVersion = stream[0];
        if (lockVersion !== undefined) page.autosave.announced(lockVersion);
        break;
      }
      case 'deliver_out_of_order': {
        const later = stream.splice(1, 1)[0];
        if (later !== undefined) page.autosave.announced(later);
        break;
      }
      case 'miss':
        if (stream.shift() !== undefined) page.missed = true;
        break;
      case 'reconnect':
        if (page.missed) {
          page.missed = false;
          page.autosave.resync();
        }
        break;
      case 'reload': {
        this.leave(action.tab, action.requestsLand);
        this.pages[action.tab] = this.open(action.tab);
        break;
      }
      case 'close_and_reopen': {
        // The tab closes (its sessionStorage, hence its id, goes with it); the person opens the email again.
        this.leave(action.tab, action.requestsLand);
        this.tabsOpened++;
        this.tabIds[action.tab] = `tab-${action.tab}-${this.tabsOpened}`;
        this.pages[action.tab] = this.open(action.tab);
        break;
      }
      case 'choose':
        this.choose(action.tab, action.keep);
        break;
      case 'retry':
        if (page.autosave.status.kind === 'failed') page.autosave.retry();
        break;
    }
    await flushPromises();
  }

  /** Answers the dialog on screen in the tab, if any. */
  choose(name: TabName, keep: boolean): void {
    const { autosave } = this.pages[name];
    const status = autosave.status;
    if (status.kind === 'conflict') {
      if (keep) autosave.overwrite(status.theirs);
      else this.startOver(name);
    } else if (status.kind === 'restored_draft') {
      if (keep) autosave.keepRestoredDraft();
      else this.startOver(name);
    }
  }

  /** "Discard my changes" / "Reload theirs": the tab starts again from the server's copy. */
  private startOver(name: TabName): void {
    this.discarded[name] = true;
    this.pages[name].autosave.discardChanges();
    this.leave(name, false);
    this.pages[name] = this.open(name);
  }

  /** What the person of each tab can see, and what their tab keeps, never holds the other's unsaved values. */
  checkInvariants(): void {
    for (const name of tabNames) {
      const other = variableOf[name === 'A' ? 'B' : 'A'];
      const shown = valuesOf(this.pages[name].editor.getState().document)[other];
      expect(this.server.held[other].has(shown), `tab ${name} shows only ${other}s the server held`).toBe(
        true,
      );
      const draft = this.storage.get(this.tabIds[name]);
      if (draft) {
        expect(
          this.server.held[other].has(valuesOf(draft.document)[other]),
          `tab ${name}'s draft keeps only ${other}s the server held`,
        ).toBe(true);
      }
    }
    expect(this.conflictsShown, 'different values never need a dialog').toBe(0);
  }

  /** Everything still owed happens: dialogs answered (keeping), saves and fetches answered, announcements delivered. */
  async settle(): Promise<void> {
    for (let round = 0; round < 200; round++) {
      const name = tabNames.find((candidate) => this.owes(candidate));
      if (!name) return;
      const page = this.pages[name];
      const { status } = page.autosave;
      if (status.kind === 'restored_draft' || status.kind === 'conflict') this.choose(name, true);
      else if (status.kind === 'failed') page.autosave.retry();
      else if (page.saves.length > 0) await this.run({ kind: 'answer', tab: name, outcome: 'ok' });
      else if (page.fetches.length > 0) await this.run({ kind: 'answer_fetch', tab: name });
      else if (this.server.streams[name].length > 0) await this.run({ kind: 'deliver', tab: name });
      else if (page.missed) await this.run({ kind: 'reconnect', tab: name });
      else await this.run({ kind: 'timer', tab: name });
      await flushPromises();
      this.checkInvariants();
    }
    throw new Error(`Did not settle: ${tabNames.map((name) => this.pages[name].autosave.status.kind)}`);
  }

  private owes(name: TabName): boolean {
    const page = this.pages[name];
    const { status } = page.autosave;
    return (
      status.kind !== 'saved' ||
      page.saves.length > 0 ||
      page.fetches.length > 0 ||
      page.timers.size > 0 ||
      page.missed ||
      this.server.streams[name].length > 0
    );
  }
}

function valuesOf(document: EditorDocument): Record<'headline' | 'subtitle', unknown> {
  const values = document.content.component_instances[0]?.field_values.null_branch?.['en-US'];
  return { headline: values?.headline?.value ?? null, subtitle: values?.subtitle?.value ?? null };
}

async function flushPromises(): Promise<void> {
  for (let turn = 0; turn < 8; turn++) await Promise.resolve();
}

async function checkModel(actions: Action[]): Promise<void> {
  const world = new World();
  for (const action of actions) {
    await world.run(action);
    world.checkInvariants();
  }
  const lastSeen = {
    A: valuesOf(world.pages.A.editor.getState().document).headline,
    B: valuesOf(world.pages.B.editor.getState().document).subtitle,
  };
  const discardedBefore = { ...world.discarded };
  await world.settle();

  for (const name of tabNames) {
    const page = world.pages[name];
    expect(page.autosave.status.kind).toBe('saved');
    expect(world.storage.get(world.tabIds[name]), `tab ${name} keeps no draft`).toBeUndefined();
    expect(
      sameDocument(page.editor.getState().document, world.server.document),
      `tab ${name} shows the server's document`,
    ).toBe(true);
    // The settle keeps whatever a dialog offers: each person's last value is what the server ends with.
    if (world.discarded[name] === discardedBefore[name]) {
      expect(valuesOf(world.server.document)[variableOf[name]], `tab ${name}'s last edit is kept`).toEqual(
        lastSeen[name],
      );
    }
  }
}

describe('two editors on one email, model-based', () => {
  it('never lose or misattribute an edit and settle on the server’s document, in any order of events', async () => {
    await fc.assert(fc.asyncProperty(fc.array(actionArbitrary, { maxLength: 50 }), checkModel), {
      numRuns: 600,
    });
  });

  it('do so over long sessions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArbitrary, { minLength: 40, maxLength: 120, size: 'max' }), checkModel),
      { numRuns: 150 },
    );
  });
});

describe('two editors on one email, the sequences that matter', () => {
  it('an edit saved in one tab reaches the other through the stream, without a dialog or an undo step', async () => {
    const world = new World();
    await world.run({ kind: 'edit', tab: 'A' });
    await world.run({ kind: 'timer', tab: 'A' });
    await world.run({ kind: 'answer', tab: 'A', outcome: 'ok' });
    await world.run({ kind: 'deliver', tab: 'B' });
    expect(world.pages.B.fetches).toHaveLength(1);
    await world.run({ kind: 'answer_fetch', tab: 'B' });
    const inB = world.pages.B.editor.getState();
    expect(valuesOf(inB.document).headline).toBe('A 1');
    expect(inB.canUndo, 'their change is not an undo step of mine').toBe(false);
    expect(world.pages.B.autosave.status.kind).toBe('saved');
  });

  it('the announcement of my own save does not fetch, even when it comes before the save’s answer', async () => {
    const world = new World();
    await world.run({ kind: 'edit', tab: 'A' });
    await world.run({ kind: 'timer', tab: 'A' });
    const [save] = world.pages.A.saves.splice(0);
    const answer = world.server.apply(save?.request as SaveRequest);
    await world.run({ kind: 'deliver', tab: 'A' });
    expect(world.pages.A.fetches, 'waits for the save under way').toHaveLength(0);
    save?.reply(answer);
    await flushPromises();
    expect(world.pages.A.fetches).toHaveLength(0);
    expect(world.pages.A.autosave.status.kind).toBe('saved');
  });

  it('undo after a merge undoes my edit only, keeping theirs', async () => {
    const world = new World();
    await world.run({ kind: 'edit', tab: 'B' });
    await world.run({ kind: 'edit', tab: 'A' });
    await world.run({ kind: 'timer', tab: 'A' });
    await world.run({ kind: 'answer', tab: 'A', outcome: 'ok' });
    await world.run({ kind: 'deliver', tab: 'B' });
    await world.run({ kind: 'answer_fetch', tab: 'B' });
    const b = world.pages.B.editor;
    expect(valuesOf(b.getState().document)).toEqual({ headline: 'A 2', subtitle: 'B 1' });
    b.undo();
    expect(valuesOf(b.getState().document)).toEqual({ headline: 'A 2', subtitle: null });
  });

  it('when their change cannot be woven into an older undo step, the history is cleared rather than bring back their overwritten value', () => {
    // Undo would put back a headline someone else has since replaced: the step is dropped.
    const world = new World();
    const a = world.pages.A;
    a.editor.dispatch(setFieldValue(field('headline'), 'mine'));
    a.editor.undo();
    expect(a.editor.getState().canRedo).toBe(true);
    world.server.apply({
      lockVersion: world.server.lockVersion,
      settings: {},
      document: {
        ...testDocument(),
        content: {
          ...testDocument().content,
          component_instances: [
            {
              id: instanceId,
              component_id: 2,
              field_values: {
                null_branch: {
                  'en-US': { link: { value: 'https://example.com/' }, headline: { value: 'theirs' } },
                },
              },
            },
          ],
        },
      },
    });
    a.autosave.announced(world.server.lockVersion);
    a.fetches.shift()?.(world.server.copy());
    return flushPromises().then(() => {
      expect(valuesOf(a.editor.getState().document).headline).toBe('theirs');
      expect(a.editor.getState().canRedo, 'redo would bring back my overwritten headline').toBe(false);
      expect(a.autosave.status.kind).toBe('saved');
    });
  });

  it('a reload of one tab never offers the other open tab’s unsaved changes', async () => {
    const world = new World();
    await world.run({ kind: 'edit', tab: 'B' });
    await world.run({ kind: 'reload', tab: 'A', requestsLand: false });
    expect(world.pages.A.autosave.status.kind).toBe('saved');
    expect(valuesOf(world.pages.A.editor.getState().document).subtitle).toBeNull();
  });

  it('a closed tab’s draft the server already holds is dropped silently; one it lacks is offered, merged onto newer saves', async () => {
    const world = new World();
    await world.run({ kind: 'edit', tab: 'B' });
    await world.run({ kind: 'timer', tab: 'B' });
    await world.run({ kind: 'answer', tab: 'B', outcome: 'answer_lost' });
    await world.run({ kind: 'close_and_reopen', tab: 'B', requestsLand: false });
    expect(world.pages.B.autosave.status.kind, 'the server holds it').toBe('saved');
    expect(world.storage.size).toBe(0);

    await world.run({ kind: 'edit', tab: 'B' });
    await world.run({ kind: 'edit', tab: 'A' });
    await world.run({ kind: 'timer', tab: 'A' });
    // Tab A never heard of B's save: its save meets it (409), merges and saves again.
    await world.run({ kind: 'answer', tab: 'A', outcome: 'ok' });
    await world.run({ kind: 'answer', tab: 'A', outcome: 'ok' });
    expect(valuesOf(world.server.document).headline).toBe('A 3');
    await world.run({ kind: 'close_and_reopen', tab: 'B', requestsLand: false });
    expect(world.pages.B.autosave.status.kind).toBe('restored_draft');
    expect(valuesOf(world.pages.B.editor.getState().document)).toEqual({ headline: 'A 3', subtitle: 'B 2' });
  });
});
