import { describe, expect, it } from 'vitest';
import { type PermissionKey, permissionKeys } from '../permissions.ts';
import { applyCommands } from './apply-command.ts';
import { insertComponent, moveComponent, removeComponent, setFieldValue, setSubject } from './commands.ts';
import { InvalidCommandError } from './document.ts';
import { createEditor } from './editor.ts';
import { heroHeadline, newId, sampleDocument, sampleIds } from './sample-document.ts';

/** What an assistant's answer brings: an insert, a value on the new instance, a move, a removal, a subject. */
const assistantEdits = [
  insertComponent({
    componentId: 12,
    index: 0,
    instanceId: newId,
    fieldValues: { null_branch: { 'en-US': { headline: { value: 'New' } } } },
  }),
  setFieldValue({ ...heroHeadline, instanceId: newId }, 'Newer'),
  moveComponent(newId, 2),
  removeComponent(sampleIds.footer),
  setSubject('null_branch', 'en-US', 'Spring sale'),
];

const bodyIds = (document: ReturnType<typeof sampleDocument>) =>
  document.content.component_instances.map((instance) => instance.id);

describe('applyCommands', () => {
  it('applies the commands in order, each seeing the ones before it', () => {
    const after = applyCommands(sampleDocument(), assistantEdits);
    expect(bodyIds(after)).toEqual([sampleIds.hero, sampleIds.tiered, newId]);
    expect(after.content.component_instances[2]?.field_values.null_branch?.['en-US']?.headline).toEqual({
      value: 'Newer',
    });
    expect(after.content.subject.branch_content.null_branch?.['en-US']).toBe('Spring sale');
  });

  it('returns the document itself for no commands', () => {
    const document = sampleDocument();
    expect(applyCommands(document, [])).toBe(document);
  });

  it('throws when a command does not fit what the earlier ones left', () => {
    expect(() =>
      applyCommands(sampleDocument(), [removeComponent(sampleIds.hero), removeComponent(sampleIds.hero)]),
    ).toThrow(InvalidCommandError);
  });
});

describe('dispatchAll', () => {
  it('makes the commands ONE undo step: one undo takes them all back, one redo brings them all again', () => {
    const document = sampleDocument();
    const editor = createEditor({ document, permissions: permissionKeys });
    editor.dispatch(setFieldValue(heroHeadline, 'Before the assistant'));
    const beforeBatch = editor.getState().document;

    expect(editor.dispatchAll(assistantEdits)).toEqual({ ok: true });
    const afterBatch = editor.getState().document;
    expect(afterBatch).toEqual(applyCommands(beforeBatch, assistantEdits));

    expect(editor.undo()).toBe(true);
    expect(editor.getState().document).toBe(beforeBatch);
    expect(editor.getState().canUndo).toBe(true);
    expect(editor.redo()).toBe(true);
    expect(editor.getState().document).toBe(afterBatch);
    expect(editor.getState().canRedo).toBe(false);
    // The edit before the batch is a step of its own, under it.
    editor.undo();
    editor.undo();
    expect(editor.getState().document).toBe(document);
  });

  it('never merges into typing before or after it', () => {
    let time = 0;
    const editor = createEditor({ document: sampleDocument(), permissions: permissionKeys, now: () => time });
    editor.dispatch(setSubject('null_branch', 'en-US', 'Typed'));
    const typed = editor.getState().document;
    editor.dispatchAll([setSubject('null_branch', 'en-US', 'By the assistant')]);
    const batched = editor.getState().document;
    time += 10;
    editor.dispatch(setSubject('null_branch', 'en-US', 'Typed again'));
    editor.undo();
    expect(editor.getState().document).toBe(batched);
    editor.undo();
    expect(editor.getState().document).toBe(typed);
  });

  it('changes nothing and reports the first refusal when a command needs a permission the user lacks', () => {
    const valuesOnly: PermissionKey[] = ['update_emails'];
    const editor = createEditor({ document: sampleDocument(), permissions: valuesOnly });
    const before = editor.getState();
    expect(editor.dispatchAll(assistantEdits)).toEqual({
      ok: false,
      reason: 'permission',
      permission: 'add_remove_reorder_email_components',
    });
    expect(editor.getState()).toBe(before);
  });

  it('changes nothing when one command does not fit, and says why', () => {
    const editor = createEditor({ document: sampleDocument(), permissions: permissionKeys });
    const before = editor.getState();
    const result = editor.dispatchAll([setSubject('null_branch', 'en-US', 'Kept?'), removeComponent('nope')]);
    expect(result).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'No component instance has the id nope.',
    });
    expect(editor.getState()).toBe(before);
  });

  it('records nothing for commands that change nothing', () => {
    const editor = createEditor({ document: sampleDocument(), permissions: permissionKeys });
    const before = editor.getState();
    expect(editor.dispatchAll([])).toEqual({ ok: true });
    expect(editor.dispatchAll([setSubject('null_branch', 'en-US', 'Hello')])).toEqual({ ok: true });
    expect(editor.getState()).toBe(before);
  });
});
