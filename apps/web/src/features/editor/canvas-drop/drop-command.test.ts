import { describe, expect, it } from 'vitest';
import { type DragItem, dropCommand } from './drop-command.ts';

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
