import { describe, expect, it } from 'vitest';
import { editedBranch } from './Inspector.tsx';

const plain = { id: 'a', component_id: 1, field_values: { null_branch: {} } };
const conditional = { id: 'b', component_id: 1, conditional_id: 7, field_values: { gold: {}, silver: {} } };

describe('editedBranch', () => {
  it('edits null_branch of an instance without a conditional', () => {
    expect(editedBranch(plain, [], { '7': 'silver' })).toBe('null_branch');
  });

  it('edits the branch picked for the conditional, else its first branch', () => {
    expect(editedBranch(conditional, ['gold', 'silver'], { '7': 'silver' })).toBe('silver');
    expect(editedBranch(conditional, ['gold', 'silver'], {})).toBe('gold');
    expect(editedBranch(conditional, ['gold', 'silver'], { '7': 'bronze' })).toBe('gold');
  });
});
