import { createEditor, type EditorDocument } from '@letterset/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DragItem, type DropPlace, dropCommand } from './drop-command.ts';

const ids = ['a', 'b', 'c'];
const component: DragItem = { kind: 'component', componentId: 7, label: 'Button' };
const instance = (instanceId: string): DragItem => ({ kind: 'instance', instanceId, label: instanceId });

describe('dropCommand', () => {
  it('inserts a component at the gap or the row it is dropped on', () => {
    expect(dropCommand(component, { kind: 'gap', index: 1 }, ids)).toMatchObject({
      type: 'insertComponent',
      componentId: 7,
      index: 1,
    });
    expect(dropCommand(component, { kind: 'row', index: 3 }, ids)).toMatchObject({ index: 3 });
  });

  it('keeps an insertion inside the body', () => {
    expect(dropCommand(component, { kind: 'gap', index: 9 }, ids)).toMatchObject({ index: 3 });
    expect(dropCommand(component, { kind: 'gap', index: -1 }, ids)).toMatchObject({ index: 0 });
  });

  it('moves an instance dropped in a gap between the gap’s neighbours', () => {
    expect(dropCommand(instance('a'), { kind: 'gap', index: 3 }, ids)).toEqual({
      type: 'moveComponent',
      instanceId: 'a',
      toIndex: 2,
    });
    expect(dropCommand(instance('c'), { kind: 'gap', index: 0 }, ids)).toEqual({
      type: 'moveComponent',
      instanceId: 'c',
      toIndex: 0,
    });
  });

  it('moves an instance dropped on an outline row to that row’s place, and on the outline’s end to the end', () => {
    expect(dropCommand(instance('a'), { kind: 'row', index: 1 }, ids)).toEqual({
      type: 'moveComponent',
      instanceId: 'a',
      toIndex: 1,
    });
    expect(dropCommand(instance('a'), { kind: 'row', index: 3 }, ids)).toMatchObject({ toIndex: 2 });
  });

  it('makes no command for a drop that changes nothing or an instance no longer in the email', () => {
    expect(dropCommand(instance('b'), { kind: 'gap', index: 1 }, ids)).toBeNull();
    expect(dropCommand(instance('b'), { kind: 'gap', index: 2 }, ids)).toBeNull();
    expect(dropCommand(instance('b'), { kind: 'row', index: 1 }, ids)).toBeNull();
    expect(dropCommand(instance('gone'), { kind: 'gap', index: 0 }, ids)).toBeNull();
  });
});

/**
 * Drops in any order, through the editor, against a model of the body as a list: a gap drop puts the
 * item between the gap's neighbours, a row drop puts it at the row's place, and each drop that
 * changes the order is one undo step.
 */
describe('drops through the editor (model-based)', () => {
  type Drop =
    | { kind: 'insert'; place: DropPlace }
    | { kind: 'move'; pick: number; place: DropPlace }
    | { kind: 'undo' };
  const placeArbitrary = fc.record({
    kind: fc.constantFrom<'gap' | 'row'>('gap', 'row'),
    index: fc.nat({ max: 8 }),
  });
  const dropArbitrary: fc.Arbitrary<Drop> = fc.oneof(
    fc.record({ kind: fc.constant('insert' as const), place: placeArbitrary }),
    fc.record({ kind: fc.constant('move' as const), pick: fc.nat({ max: 8 }), place: placeArbitrary }),
    fc.constant({ kind: 'undo' as const }),
  );

  function emptyDocument(ids: string[]): EditorDocument {
    return {
      locales: ['en-US'],
      defaultLocale: 'en-US',
      content: {
        subject: { conditional_id: null, branch_content: {} },
        preheader: { conditional_id: null, branch_content: {} },
        container_component_instance: {
          id: 'container',
          component_id: 1,
          conditional_id: null,
          field_values: {},
        },
        component_instances: ids.map((id) => ({
          id,
          component_id: 2,
          conditional_id: null,
          field_values: {},
        })),
      },
    };
  }

  it('keeps the body in the model’s order after every drop and undo', () => {
    fc.assert(
      fc.property(fc.array(dropArbitrary, { maxLength: 25 }), (drops) => {
        const editor = createEditor({
          document: emptyDocument(['a', 'b', 'c']),
          permissions: ['add_remove_reorder_email_components'],
        });
        const idsOf = () =>
          editor.getState().document.content.component_instances.map((instance) => instance.id);
        let model = ['a', 'b', 'c'];
        const history: string[][] = [];
        for (const drop of drops) {
          if (drop.kind === 'undo') {
            editor.undo();
            model = history.pop() ?? model;
          } else {
            const ids = idsOf();
            const picked = drop.kind === 'move' ? ids[drop.pick % Math.max(ids.length, 1)] : undefined;
            if (drop.kind === 'move' && picked === undefined) continue;
            const item: DragItem =
              picked === undefined
                ? { kind: 'component', componentId: 2, label: 'Text' }
                : { kind: 'instance', instanceId: picked, label: 'Text' };
            const command = dropCommand(item, drop.place, ids);
            const next = [...model];
            const at = Math.min(drop.place.index, next.length);
            if (command?.type === 'insertComponent') {
              next.splice(at, 0, command.instanceId);
            } else if (item.kind === 'instance') {
              const from = next.indexOf(item.instanceId);
              next.splice(from, 1);
              const to = drop.place.kind === 'gap' ? (at > from ? at - 1 : at) : Math.min(at, next.length);
              next.splice(to, 0, item.instanceId);
            }
            const changed = next.join() !== model.join();
            // A drop makes a command exactly when it changes the order.
            expect(command !== null).toBe(changed);
            if (command) {
              expect(editor.dispatch(command).ok).toBe(true);
              history.push(model);
              model = next;
            }
          }
          expect(idsOf()).toEqual(model);
        }
      }),
    );
  });
});
