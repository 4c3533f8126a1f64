import { describe, expect, it, vi } from 'vitest';
import { builtInRoleGrants, type PermissionKey, permissionKeys } from '../permissions.ts';
import { applyCommand } from './apply-command.ts';
import {
  addLocale,
  commandPermissions,
  type EditorCommand,
  insertComponent,
  moveComponent,
  removeComponent,
  renameComponent,
  setConditional,
  setFieldValue,
  setFieldValues,
  setGlobalLinkTrackingParameter,
  setPreheader,
  setSubject,
} from './commands.ts';
import type { EditorDocument } from './document.ts';
import { createEditor, defaultCoalesceWindowMs, defaultHistoryLimit, type EditorOptions } from './editor.ts';
import { mergeDocuments } from './merge-documents.ts';
import { everyCommand, heroHeadline, newId, sampleDocument, sampleIds } from './sample-document.ts';

/** An editor over the sample document with every permission and a clock the test moves. */
function setup(options: Partial<EditorOptions> = {}) {
  let time = 0;
  const editor = createEditor({
    document: sampleDocument(),
    permissions: permissionKeys,
    now: () => time,
    ...options,
  });
  return {
    editor,
    document: () => editor.getState().document,
    advance: (milliseconds: number) => {
      time += milliseconds;
    },
  };
}

function headline(document: EditorDocument): unknown {
  return document.content.component_instances.find((instance) => instance.id === sampleIds.hero)?.field_values
    .null_branch?.['en-US']?.headline?.value;
}

describe('dispatch', () => {
  it('applies a command and reports ok', () => {
    const { editor, document } = setup();
    expect(editor.dispatch(setFieldValue(heroHeadline, 'Welcome'))).toEqual({ ok: true });
    expect(headline(document())).toBe('Welcome');
    expect(editor.getState().canUndo).toBe(true);
    expect(editor.getState().canRedo).toBe(false);
  });

  it('reports an invalid command with its message and changes nothing', () => {
    const { editor } = setup();
    const before = editor.getState();
    expect(editor.dispatch(removeComponent('nope'))).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'No component instance has the id nope.',
    });
    expect(editor.getState()).toBe(before);
  });

  it('lets errors other than invalid commands through, since they are bugs', () => {
    const { editor } = setup();
    const broken = { type: 'renameComponent', instanceId: sampleIds.hero } as unknown as EditorCommand;
    expect(() => editor.dispatch(broken)).toThrow(TypeError);
  });

  it('records no history for a command that changes nothing', () => {
    const { editor } = setup();
    const before = editor.getState();
    expect(editor.dispatch(setFieldValue(heroHeadline, 'Hi'))).toEqual({ ok: true });
    expect(editor.getState()).toBe(before);
    expect(editor.undo()).toBe(false);
  });
});

describe('permissions', () => {
  it('refuses a command whose key the user lacks, leaving document and history as they were', () => {
    const { editor } = setup({ permissions: ['update_emails'] });
    editor.dispatch(setFieldValue(heroHeadline, 'Welcome'));
    const before = editor.getState();
    expect(editor.dispatch(removeComponent(sampleIds.hero))).toEqual({
      ok: false,
      reason: 'permission',
      permission: 'add_remove_reorder_email_components',
    });
    expect(editor.dispatch(setConditional(sampleIds.hero, 7, ['gold']))).toMatchObject({
      permission: 'add_remove_conditional_from_components',
    });
    expect(editor.dispatch(addLocale('de-DE'))).toMatchObject({
      permission: 'add_remove_locales_from_emails',
    });
    expect(editor.getState()).toBe(before);
    expect(editor.undo()).toBe(true);
    expect(editor.undo()).toBe(false);
  });

  it('checks permission before validity, so a refused user learns nothing about the content', () => {
    const { editor } = setup({ permissions: [] });
    expect(editor.dispatch(removeComponent('nope'))).toMatchObject({ reason: 'permission' });
  });

  it('refuses every command to a role without its key, and allows it with the key alone', () => {
    for (const command of everyCommand()) {
      const key = commandPermissions[command.type];
      const without = setup({ permissions: permissionKeys.filter((permission) => permission !== key) });
      expect(without.editor.dispatch(command), command.type).toEqual({
        ok: false,
        reason: 'permission',
        permission: key,
      });
      expect(without.document()).toEqual(sampleDocument());
      const only = setup({ permissions: [key] });
      expect(only.editor.dispatch(command), command.type).toEqual({ ok: true });
    }
  });

  it('answers can() per command type, as the built-in roles grant', () => {
    const viewer = setup({ permissions: builtInRoleGrants.Viewer }).editor;
    const editorRole = setup({ permissions: builtInRoleGrants.Editor }).editor;
    for (const type of Object.keys(commandPermissions) as (keyof typeof commandPermissions)[]) {
      expect(viewer.can(type), type).toBe(false);
      expect(editorRole.can(type), type).toBe(true);
    }
    const writer = setup({ permissions: ['update_emails'] as PermissionKey[] }).editor;
    expect(writer.can('setFieldValue')).toBe(true);
    expect(writer.can('moveComponent')).toBe(false);
  });
});

describe('undo and redo', () => {
  it('take every command back and forward again', () => {
    for (const command of everyCommand()) {
      const { editor, document } = setup();
      const original = document();
      const changed = applyCommand(original, command);
      expect(editor.dispatch(command), command.type).toEqual({ ok: true });
      expect(document(), command.type).toEqual(changed);
      expect(editor.undo(), command.type).toBe(true);
      expect(document(), command.type).toBe(original);
      expect(editor.redo(), command.type).toBe(true);
      expect(document(), command.type).toEqual(changed);
    }
  });

  it('take several values set together (a feed fill) back in one step', () => {
    const { editor, document } = setup();
    const original = document();
    const target = { instanceId: sampleIds.hero, branch: 'null_branch', locale: 'en-US' };
    editor.dispatch(setFieldValues(target, { headline: 'Spring sale', link: 'https://shop.example/sale' }));
    const values = document().content.component_instances[0]?.field_values.null_branch?.['en-US'];
    expect(values?.headline?.value).toBe('Spring sale');
    expect(values?.link?.value).toBe('https://shop.example/sale');
    expect(editor.undo()).toBe(true);
    expect(document()).toBe(original);
  });

  it('walk back and forth through several steps in order', () => {
    const { editor, document } = setup();
    const states = [document()];
    const commands = [
      moveComponent(sampleIds.hero, 2),
      renameComponent(sampleIds.footer, 'End'),
      addLocale('de-DE'),
    ];
    for (const command of commands) {
      editor.dispatch(command);
      states.push(document());
    }
    for (let step = commands.length - 1; step >= 0; step -= 1) {
      editor.undo();
      expect(document()).toBe(states[step]);
    }
    expect(editor.getState()).toMatchObject({ canUndo: false, canRedo: true });
    for (let step = 1; step <= commands.length; step += 1) {
      editor.redo();
      expect(document()).toBe(states[step]);
    }
    expect(editor.getState()).toMatchObject({ canUndo: true, canRedo: false });
  });

  it('answer false and change nothing when there is nothing to undo or redo', () => {
    const { editor } = setup();
    const before = editor.getState();
    expect(editor.undo()).toBe(false);
    expect(editor.redo()).toBe(false);
    expect(editor.getState()).toBe(before);
  });

  it('a new command clears the redo stack', () => {
    const { editor, document } = setup();
    editor.dispatch(renameComponent(sampleIds.hero, 'A'));
    editor.undo();
    expect(editor.getState().canRedo).toBe(true);
    editor.dispatch(renameComponent(sampleIds.footer, 'B'));
    expect(editor.getState().canRedo).toBe(false);
    expect(editor.redo()).toBe(false);
    expect(document().content.component_instances[0]?.name).toBe('Hero');
  });

  it('a refused or no-op command keeps the redo stack', () => {
    const { editor } = setup();
    editor.dispatch(renameComponent(sampleIds.hero, 'A'));
    editor.undo();
    editor.dispatch(removeComponent('nope'));
    editor.dispatch(renameComponent(sampleIds.hero, 'Hero'));
    expect(editor.getState().canRedo).toBe(true);
  });
});

describe('coalescing', () => {
  function typeHeadline(editor: ReturnType<typeof setup>, texts: string[], gapMs: number): void {
    for (const text of texts) {
      editor.advance(gapMs);
      editor.editor.dispatch(setFieldValue(heroHeadline, text));
    }
  }

  it('merges edits of the same field inside the window into one undo step', () => {
    const session = setup();
    typeHeadline(session, ['W', 'We', 'Wel'], defaultCoalesceWindowMs - 1);
    expect(headline(session.document())).toBe('Wel');
    session.editor.undo();
    expect(headline(session.document())).toBe('Hi');
    expect(session.editor.getState().canUndo).toBe(false);
    session.editor.redo();
    expect(headline(session.document())).toBe('Wel');
  });

  it('measures the window from the latest edit, so steady typing stays one step', () => {
    const session = setup();
    typeHeadline(session, ['a', 'ab', 'abc', 'abcd', 'abcde'], 600);
    session.editor.undo();
    expect(headline(session.document())).toBe('Hi');
  });

  it('starts a new step once the window has passed', () => {
    const session = setup();
    typeHeadline(session, ['W', 'We'], 10);
    typeHeadline(session, ['Wel'], defaultCoalesceWindowMs);
    session.editor.undo();
    expect(headline(session.document())).toBe('We');
    session.editor.undo();
    expect(headline(session.document())).toBe('Hi');
  });

  it('does not merge edits of different fields, locales or branches', () => {
    const session = setup();
    const { editor } = session;
    editor.dispatch(setFieldValue(heroHeadline, 'One'));
    editor.dispatch(setFieldValue({ ...heroHeadline, variable: 'link' }, 'https://two.example'));
    editor.dispatch(setFieldValue({ ...heroHeadline, locale: 'fr-FR' }, 'Trois'));
    editor.dispatch(
      setFieldValue(
        { instanceId: sampleIds.tiered, branch: 'gold', locale: 'en-US', variable: 'headline' },
        'G',
      ),
    );
    editor.dispatch(
      setFieldValue(
        { instanceId: sampleIds.tiered, branch: 'silver', locale: 'en-US', variable: 'headline' },
        'S',
      ),
    );
    let steps = 0;
    while (editor.undo()) steps += 1;
    expect(steps).toBe(5);
    expect(session.document()).toEqual(sampleDocument());
  });

  it('merges subject and preheader typing per branch and locale, never with each other', () => {
    const { editor, document } = setup();
    editor.dispatch(setSubject('null_branch', 'en-US', 'S'));
    editor.dispatch(setSubject('null_branch', 'en-US', 'Sa'));
    editor.dispatch(setPreheader('null_branch', 'en-US', 'P'));
    editor.dispatch(setPreheader('null_branch', 'en-US', 'Pr'));
    editor.dispatch(setSubject('null_branch', 'fr-FR', 'F'));
    editor.undo();
    expect(document().content.subject.branch_content.null_branch?.['fr-FR']).toBe('Bonjour');
    editor.undo();
    expect(document().content.preheader.branch_content.null_branch?.['en-US']).toBe('Read on');
    expect(document().content.subject.branch_content.null_branch?.['en-US']).toBe('Sa');
    editor.undo();
    expect(document()).toEqual(sampleDocument());
  });

  it('merges typing of one instance’s name, never of two', () => {
    const { editor, document } = setup();
    const nameOf = (id: string) =>
      document().content.component_instances.find((instance) => instance.id === id)?.name;
    editor.dispatch(renameComponent(sampleIds.hero, 'A'));
    editor.dispatch(renameComponent(sampleIds.hero, 'AB'));
    editor.dispatch(renameComponent(sampleIds.footer, 'F'));
    editor.undo();
    expect(nameOf(sampleIds.hero)).toBe('AB');
    editor.undo();
    expect(document()).toEqual(sampleDocument());
  });

  it('merges typing of one link tracking parameter, never of two', () => {
    const { editor, document } = setup();
    editor.dispatch(setGlobalLinkTrackingParameter('utm_source', 'n'));
    editor.dispatch(setGlobalLinkTrackingParameter('utm_source', 'news'));
    editor.dispatch(setGlobalLinkTrackingParameter('utm_medium', 'e'));
    editor.undo();
    expect(document().content.global_link_tracking_parameters).toEqual(
      expect.objectContaining({ utm_source: 'news' }),
    );
    editor.undo();
    expect(document()).toEqual(sampleDocument());
  });

  it('never merges structural commands, even into each other', () => {
    const { editor, document } = setup();
    editor.dispatch(moveComponent(sampleIds.hero, 1));
    editor.dispatch(moveComponent(sampleIds.hero, 0));
    editor.undo();
    expect(document().content.component_instances[1]?.id).toBe(sampleIds.hero);
  });

  it('does not merge across another command in between', () => {
    const { editor, document } = setup();
    editor.dispatch(setFieldValue(heroHeadline, 'A'));
    editor.dispatch(renameComponent(sampleIds.footer, 'End'));
    editor.dispatch(setFieldValue(heroHeadline, 'AB'));
    editor.undo();
    expect(headline(document())).toBe('A');
  });

  it('does not merge a new edit into a step reached by undo or redo', () => {
    const { editor, document } = setup();
    editor.dispatch(setFieldValue(heroHeadline, 'A'));
    editor.dispatch(setFieldValue({ ...heroHeadline, variable: 'link' }, 'https://b.example'));
    editor.undo();
    editor.dispatch(setFieldValue(heroHeadline, 'AB'));
    editor.undo();
    expect(headline(document())).toBe('A');
    editor.redo();
    editor.dispatch(setFieldValue(heroHeadline, 'ABC'));
    editor.undo();
    expect(headline(document())).toBe('AB');
  });

  it('uses the window it is given', () => {
    const session = setup({ coalesceWindowMs: 50 });
    typeHeadline(session, ['a', 'ab'], 60);
    session.editor.undo();
    expect(headline(session.document())).toBe('a');
  });
});

describe('history bound', () => {
  /** Renames alternate between two instances, so no two steps merge. */
  const renameStep = (step: number, name: string) =>
    renameComponent(step % 2 === 1 ? sampleIds.hero : sampleIds.footer, name);

  it(`keeps the latest ${defaultHistoryLimit} steps by default`, () => {
    const { editor, document } = setup();
    for (let step = 1; step <= defaultHistoryLimit + 5; step += 1) {
      editor.dispatch(renameStep(step, `Name ${step}`));
    }
    let undone = 0;
    while (editor.undo()) undone += 1;
    expect(undone).toBe(defaultHistoryLimit);
    expect(document().content.component_instances[0]?.name).toBe('Name 5');
  });

  it('uses the bound it is given', () => {
    const { editor, document } = setup({ historyLimit: 2 });
    for (const [index, name] of ['A', 'B', 'C'].entries()) editor.dispatch(renameStep(index + 1, name));
    expect(editor.undo()).toBe(true);
    expect(editor.undo()).toBe(true);
    expect(editor.undo()).toBe(false);
    expect(document().content.component_instances[0]?.name).toBe('A');
  });
});

describe('subscribe', () => {
  it('tells listeners about dispatch, undo and redo, and not about refusals or no-ops', () => {
    const { editor } = setup({ permissions: ['update_emails'] });
    const listener = vi.fn();
    editor.subscribe(listener);
    editor.dispatch(setFieldValue(heroHeadline, 'A'));
    editor.dispatch(setFieldValue(heroHeadline, 'A'));
    editor.dispatch(removeComponent(sampleIds.hero));
    editor.dispatch(setFieldValue({ ...heroHeadline, locale: 'xx' }, 'A'));
    expect(listener).toHaveBeenCalledTimes(1);
    editor.undo();
    editor.redo();
    editor.redo();
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('gives a new state object on each change and the same one between changes', () => {
    const { editor } = setup();
    const first = editor.getState();
    expect(editor.getState()).toBe(first);
    editor.dispatch(insertComponent({ componentId: 9, index: 0, instanceId: newId }));
    const second = editor.getState();
    expect(second).not.toBe(first);
    expect(editor.getState()).toBe(second);
  });

  it('stops calling a listener once it unsubscribes, and keeps calling the others', () => {
    const { editor } = setup();
    const leaving = vi.fn();
    const staying = vi.fn();
    const unsubscribe = editor.subscribe(leaving);
    editor.subscribe(staying);
    editor.dispatch(renameComponent(sampleIds.hero, 'A'));
    unsubscribe();
    editor.dispatch(renameComponent(sampleIds.hero, 'B'));
    expect(leaving).toHaveBeenCalledTimes(1);
    expect(staying).toHaveBeenCalledTimes(2);
  });

  it('lets a listener read the new state', () => {
    const { editor } = setup();
    const seen: unknown[] = [];
    editor.subscribe(() => seen.push(headline(editor.getState().document)));
    editor.dispatch(setFieldValue(heroHeadline, 'Now'));
    expect(seen).toEqual(['Now']);
  });
});

describe('rebase', () => {
  const frenchHeadline = { ...heroHeadline, locale: 'fr-FR' };
  const footerText = {
    instanceId: sampleIds.footer,
    branch: 'null_branch',
    locale: 'en-US',
    variable: 'text',
  };
  const frenchOf = (document: EditorDocument) =>
    document.content.component_instances[0]?.field_values.null_branch?.['fr-FR']?.headline?.value;
  const footerOf = (document: EditorDocument) =>
    document.content.component_instances[2]?.field_values.null_branch?.['en-US']?.text?.value;
  /** Merges what someone else saved on top of `base` into a document, as the autosave does after a 409. */
  const mergingTheirs = (base: EditorDocument, theirs: EditorDocument) => (document: EditorDocument) => {
    const result = mergeDocuments(base, document, theirs);
    return 'merged' in result ? result.merged : undefined;
  };

  it('merges their change into the document and every snapshot, so undo and redo keep it', () => {
    const { editor, document, advance } = setup();
    const base = document();
    editor.dispatch(setFieldValue(heroHeadline, 'Welcome'));
    advance(defaultCoalesceWindowMs);
    editor.dispatch(setFieldValue(footerText, 'Ciao'));
    editor.undo();
    const theirs = applyCommand(base, setFieldValue(frenchHeadline, 'Bienvenue'));
    const listener = vi.fn();
    editor.subscribe(listener);

    expect(editor.rebase(mergingTheirs(base, theirs))).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    expect([headline(document()), footerOf(document()), frenchOf(document())]).toEqual([
      'Welcome',
      'Bye',
      'Bienvenue',
    ]);
    expect(editor.getState()).toMatchObject({ canUndo: true, canRedo: true });

    editor.undo();
    expect([headline(document()), frenchOf(document())]).toEqual(['Hi', 'Bienvenue']);
    expect(editor.undo()).toBe(false);
    editor.redo();
    editor.redo();
    expect([headline(document()), footerOf(document()), frenchOf(document())]).toEqual([
      'Welcome',
      'Ciao',
      'Bienvenue',
    ]);
  });

  it('changes nothing and returns false when any snapshot cannot be merged', () => {
    const { editor, document, advance } = setup();
    const base = document();
    editor.dispatch(setFieldValue(footerText, 'Ciao'));
    advance(defaultCoalesceWindowMs);
    editor.dispatch(setFieldValue(heroHeadline, 'Welcome'));
    advance(defaultCoalesceWindowMs);
    editor.dispatch(setFieldValue(heroHeadline, 'Hi'));
    const before = editor.getState();
    // Their headline merges into the document, whose headline is back to base's, but not into the snapshot saying Welcome.
    const theirs = applyCommand(base, setFieldValue(heroHeadline, 'Hola'));
    expect(mergingTheirs(base, theirs)(before.document)).toBeDefined();
    const listener = vi.fn();
    editor.subscribe(listener);

    expect(editor.rebase(mergingTheirs(base, theirs))).toBe(false);
    expect(editor.getState()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
    editor.undo();
    expect([headline(document()), footerOf(document())]).toEqual(['Welcome', 'Ciao']);
  });

  it('drops a step whose change they made too, and records no step of its own', () => {
    const { editor, document } = setup();
    const base = document();
    editor.dispatch(setFieldValue(frenchHeadline, 'Bienvenue'));
    const theirs = applyCommand(base, setFieldValue(frenchHeadline, 'Bienvenue'));
    expect(editor.rebase(mergingTheirs(base, theirs))).toBe(true);
    expect(editor.getState()).toMatchObject({ canUndo: false, canRedo: false });
    expect(frenchOf(document())).toBe('Bienvenue');
  });

  it('leaves the state as it is when the transform changes nothing', () => {
    const { editor } = setup();
    editor.dispatch(setFieldValue(heroHeadline, 'Welcome'));
    const before = editor.getState();
    expect(editor.rebase((document) => document)).toBe(true);
    expect(editor.getState()).toBe(before);
  });
});

describe('createEditor', () => {
  it('starts from the document it is given, with empty history, without copying or changing it', () => {
    const document = sampleDocument();
    const editor = createEditor({ document, permissions: permissionKeys });
    expect(editor.getState()).toEqual({ document, canUndo: false, canRedo: false });
    expect(editor.getState().document).toBe(document);
    editor.dispatch(setFieldValue(heroHeadline, 'Changed'));
    expect(headline(document)).toBe('Hi');
  });

  it('uses the real clock when none is given', () => {
    const spy = vi.spyOn(Date, 'now').mockReturnValue(1_000);
    try {
      const editor = createEditor({ document: sampleDocument(), permissions: permissionKeys });
      editor.dispatch(setFieldValue(heroHeadline, 'a'));
      spy.mockReturnValue(1_000 + defaultCoalesceWindowMs);
      editor.dispatch(setFieldValue(heroHeadline, 'ab'));
      editor.undo();
      expect(headline(editor.getState().document)).toBe('a');
    } finally {
      spy.mockRestore();
    }
  });
});
