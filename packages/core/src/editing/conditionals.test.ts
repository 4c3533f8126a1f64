import { describe, expect, it } from 'vitest';
import { rebranch } from './conditionals.ts';
import { InvalidCommandError } from './document.ts';

const english = { 'en-US': 'Hello' };
const french = { 'fr-FR': 'Bonjour' };

describe('rebranch', () => {
  it('attaching copies null_branch content into every branch, the same object each time', () => {
    const result = rebranch({ null_branch: english }, null, { conditionalId: 7, branchKeys: ['a', 'b'] });
    expect(result).toEqual({ a: english, b: english });
    expect(result.a).toBe(english);
    expect(result.b).toBe(english);
  });

  it('attaching content that has nothing stored gives no branches', () => {
    expect(rebranch({}, undefined, { conditionalId: 7, branchKeys: ['a'] })).toEqual({});
  });

  it('detaching keeps the first branch that has content, in the order given, else the stored order', () => {
    const stored = { a: english, b: french };
    expect(rebranch(stored, 7, { conditionalId: null, branchKeys: [] })).toEqual({ null_branch: english });
    expect(rebranch(stored, 7, { conditionalId: null, branchKeys: ['b', 'a'] })).toEqual({
      null_branch: french,
    });
    expect(rebranch(stored, 7, { conditionalId: null, branchKeys: ['missing', 'b'] })).toEqual({
      null_branch: french,
    });
    expect(rebranch({}, 7, { conditionalId: null, branchKeys: [] })).toEqual({});
  });

  it('swapping keeps matching keys and starts the others from the first stored branch', () => {
    const stored = { a: english, b: french };
    expect(rebranch(stored, 7, { conditionalId: 8, branchKeys: ['b', 'c'] })).toEqual({
      b: french,
      c: english,
    });
    expect(rebranch(stored, 7, { conditionalId: 7, branchKeys: ['a', 'b', 'c'] })).toEqual({
      a: english,
      b: french,
      c: english,
    });
  });

  it('returns the same record when nothing changes', () => {
    const plain = { null_branch: english };
    expect(rebranch(plain, null, { conditionalId: null, branchKeys: [] })).toBe(plain);
    const branched = { a: english, b: french };
    expect(rebranch(branched, 7, { conditionalId: 7, branchKeys: ['b', 'a'] })).toBe(branched);
    expect(rebranch(branched, 8, { conditionalId: 7, branchKeys: ['b', 'a'] })).not.toBe(branched);
  });

  it('refuses empty, repeated and null_branch keys when attaching', () => {
    for (const branchKeys of [[], ['a', 'a'], ['null_branch']]) {
      expect(() => rebranch({}, null, { conditionalId: 7, branchKeys })).toThrow(InvalidCommandError);
    }
  });
});
