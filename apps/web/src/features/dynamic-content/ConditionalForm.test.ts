import { describe, expect, it } from 'vitest';
import { type ConditionalValues, requestBody } from './ConditionalForm.tsx';

const picker = {
  include_else_branch: true,
  branches: {
    gold: { conditions: [{ attribute: 'tier', type: 'string' as const, operator: 'equals', value: 'gold' }] },
    renamed_away: { conditions: [] },
  },
};

function values(overrides: Partial<ConditionalValues> = {}): ConditionalValues {
  return {
    label: ' Membership ',
    can_be_used_in_subject_and_preheader: false,
    branches: [
      { key: 'gold', label: 'Gold' },
      { key: 'others', label: 'Everyone else' },
    ],
    default_branch_key: null,
    default_value: {
      closing: '{% endif %}',
      branch_values: { gold: '{% if gold %}', old_key: '{% if old %}' },
    },
    dynamic_content_profile_values: {
      'profile-hand': {
        mode: 'hand',
        closing: '{{/if}}',
        branch_values: { gold: '{{#if gold}}' },
        ui_picker_state: picker,
      },
      'profile-picker': { mode: 'picker', closing: '', branch_values: {}, ui_picker_state: picker },
      'profile-unset': { mode: 'unset', closing: 'ignored', branch_values: {}, ui_picker_state: picker },
    },
    ...overrides,
  };
}

describe('the conditional request body', () => {
  it('sends one opening per current branch key, empty where none was written, and none for old keys', () => {
    const body = requestBody(values());
    expect(body.label).toBe('Membership');
    expect(body.default_value.branch_values).toEqual({ gold: '{% if gold %}', others: '' });
    expect(body.dynamic_content_profile_values['profile-hand']).toEqual({
      closing: '{{/if}}',
      branch_values: { gold: '{{#if gold}}', others: '' },
    });
  });

  it('sends picker states for picker profiles, without branches that no longer exist, and leaves unset profiles out', () => {
    const body = requestBody(values());
    expect(body.dynamic_content_profile_values['profile-picker']).toEqual({
      uses_ui_picker: true,
      ui_picker_state: { include_else_branch: true, branches: { gold: picker.branches.gold } },
    });
    expect(body.dynamic_content_profile_values).not.toHaveProperty('profile-unset');
  });

  it('sends the branch chosen for exports without a profile, and null (the last branch) for one it no longer has', () => {
    expect(requestBody(values()).default_branch_key).toBeNull();
    expect(requestBody(values({ default_branch_key: 'gold' })).default_branch_key).toBe('gold');
    expect(requestBody(values({ default_branch_key: 'removed' })).default_branch_key).toBeNull();
  });
});
