import { describe, expect, it } from 'vitest';
import { branchedTextFor, instanceValuesFor, selectBranch } from './branches.ts';

describe('selectBranch', () => {
  it('is null_branch without a conditional', () => {
    expect(selectBranch(null, ['gold'], { '1': 'gold' })).toBe('null_branch');
    expect(selectBranch(undefined, [], undefined)).toBe('null_branch');
  });

  it('is the selected branch if present, else the first one', () => {
    expect(selectBranch(1, ['gold', 'silver'], { '1': 'silver' })).toBe('silver');
    expect(selectBranch(1, ['gold', 'silver'], { '1': 'bronze' })).toBe('gold');
    expect(selectBranch(1, ['gold', 'silver'], undefined)).toBe('gold');
    expect(selectBranch(1, [], undefined)).toBeNull();
  });
});

describe('instanceValuesFor', () => {
  it('flattens the values of the branch and locale', () => {
    expect(
      instanceValuesFor(
        {
          id: 'x',
          component_id: 1,
          field_values: { null_branch: { 'en-US': { headline: { value: 'Hi' }, count: { value: 2 } } } },
        },
        'en-US',
      ),
    ).toEqual({ headline: 'Hi', count: 2 });
  });

  it('is empty for a missing locale or branch', () => {
    expect(instanceValuesFor({ id: 'x', component_id: 1, field_values: {} }, 'en-US')).toEqual({});
    expect(
      instanceValuesFor({ id: 'x', component_id: 1, conditional_id: 3, field_values: {} }, 'en-US'),
    ).toEqual({});
  });
});

describe('branchedTextFor', () => {
  it('reads the branch and locale, empty when absent', () => {
    const subject = {
      conditional_id: 4,
      branch_content: { vip: { 'en-US': 'For you' }, else: { 'en-US': 'For all' } },
    };
    expect(branchedTextFor(subject, 'en-US', { '4': 'else' })).toBe('For all');
    expect(branchedTextFor(subject, 'en-US')).toBe('For you');
    expect(branchedTextFor(subject, 'de-DE')).toBe('');
    expect(branchedTextFor(undefined, 'en-US')).toBe('');
  });
});
