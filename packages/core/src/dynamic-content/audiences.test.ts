import { describe, expect, it } from 'vitest';
import type { ComponentInstance, EmailContent } from '../content/types.ts';
import {
  type AudienceConditional,
  audienceLabelOf,
  audienceOptions,
  audienceSelection,
  audiencesOf,
  defaultAudienceSelection,
} from './audiences.ts';

const membership: AudienceConditional = {
  id: 7,
  label: 'Membership',
  branches: [
    { key: 'gold', label: 'Gold members' },
    { key: 'others', label: 'Everyone else' },
  ],
};

const region: AudienceConditional = {
  id: 9,
  label: 'Region',
  branches: [
    { key: 'eu', label: 'Europe' },
    { key: 'us', label: 'Americas' },
    { key: 'row', label: 'Rest of the world' },
  ],
  default_branch_key: 'eu',
};

const unused: AudienceConditional = { id: 11, label: 'Unused', branches: [{ key: 'a', label: 'A' }] };

function instance(id: string, conditionalId: number | null): ComponentInstance {
  return { id, component_id: 1, conditional_id: conditionalId, field_values: {} };
}

function content(overrides: Partial<EmailContent> = {}): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Hi' } } },
    preheader: { branch_content: { null_branch: { 'en-US': '' } } },
    container_component_instance: instance('container', null),
    component_instances: [],
    ...overrides,
  };
}

describe('default branches', () => {
  const email = content({ component_instances: [instance('a', 7)] });
  const defaultOf = (conditional: AudienceConditional) =>
    audiencesOf(email, [conditional])[0]?.defaultBranchKey;

  it('is the chosen default branch, else the last branch', () => {
    expect(defaultOf({ ...region, id: 7 })).toBe('eu');
    expect(defaultOf(membership)).toBe('others');
    expect(defaultOf({ ...membership, default_branch_key: null })).toBe('others');
  });

  it('ignores a default branch key the conditional no longer has', () => {
    expect(defaultOf({ ...membership, default_branch_key: 'silver' })).toBe('others');
  });
});

describe('audiencesOf', () => {
  it('is empty for an email without conditionals', () => {
    expect(audiencesOf(content({ component_instances: [instance('a', null)] }), [membership])).toEqual([]);
    expect(audiencesOf(null, [membership])).toEqual([]);
  });

  it('lists each used conditional once, in the order the email first uses it, with its default branch', () => {
    const email = content({
      component_instances: [instance('a', 9), instance('b', 7), instance('c', 9)],
    });
    expect(audiencesOf(email, [membership, region, unused])).toEqual([
      {
        conditionalId: 9,
        conditionalLabel: 'Region',
        branches: region.branches,
        defaultBranchKey: 'eu',
      },
      {
        conditionalId: 7,
        conditionalLabel: 'Membership',
        branches: membership.branches,
        defaultBranchKey: 'others',
      },
    ]);
  });

  it('finds conditionals of the container, the subject and the preheader', () => {
    const ids = (email: EmailContent) => audiencesOf(email, [membership, region]).map((a) => a.conditionalId);
    expect(ids(content({ container_component_instance: instance('container', 7) }))).toEqual([7]);
    expect(ids(content({ subject: { conditional_id: 9, branch_content: {} } }))).toEqual([9]);
    expect(ids(content({ preheader: { conditional_id: 7, branch_content: {} } }))).toEqual([7]);
  });

  it('leaves out conditionals the workspace does not have and those without branches', () => {
    const email = content({ component_instances: [instance('a', 404), instance('b', 12)] });
    expect(audiencesOf(email, [{ id: 12, label: 'Empty', branches: [] }])).toEqual([]);
  });

  it('names an unlabelled conditional or branch by its id or key', () => {
    const email = content({ component_instances: [instance('a', 3)] });
    expect(audiencesOf(email, [{ id: 3, branches: [{ key: 'x', label: ' ' }] }])).toEqual([
      {
        conditionalId: 3,
        conditionalLabel: 'Conditional 3',
        branches: [{ key: 'x', label: 'x' }],
        defaultBranchKey: 'x',
      },
    ]);
  });
});

describe('audience selections', () => {
  const audiences = audiencesOf(content({ component_instances: [instance('a', 7), instance('b', 9)] }), [
    membership,
    region,
  ]);

  it('puts every used conditional at its default branch', () => {
    expect(defaultAudienceSelection(audiences)).toEqual({ '7': 'others', '9': 'eu' });
  });

  it('keeps chosen branches of used conditionals and drops the rest', () => {
    expect(audienceSelection(audiences, { '7': 'gold', '9': 'mars', '11': 'a' })).toEqual({
      '7': 'gold',
      '9': 'eu',
    });
  });
});

describe('audienceOptions', () => {
  it('lists branch labels alone when the email uses one conditional', () => {
    const audiences = audiencesOf(content({ component_instances: [instance('a', 7)] }), [membership]);
    expect(audienceOptions(audiences)).toEqual([
      { value: '7:gold', label: 'Gold members', conditionalId: 7, branchKey: 'gold' },
      { value: '7:others', label: 'Everyone else', conditionalId: 7, branchKey: 'others' },
    ]);
  });

  it('prefixes each branch with its conditional when the email uses several', () => {
    const audiences = audiencesOf(content({ component_instances: [instance('a', 7), instance('b', 9)] }), [
      membership,
      region,
    ]);
    expect(audienceOptions(audiences).map((option) => option.label)).toEqual([
      'Membership: Gold members',
      'Membership: Everyone else',
      'Region: Europe',
      'Region: Americas',
      'Region: Rest of the world',
    ]);
  });

  it('is empty without conditionals', () => {
    expect(audienceOptions([])).toEqual([]);
  });
});

describe('audienceLabelOf', () => {
  const email = content({
    component_instances: [instance('a', 7), instance('b', 9)],
    subject: { conditional_id: 7, branch_content: {} },
  });
  const audiences = audiencesOf(email, [membership, region]);

  it('names the branch of the instance’s conditional', () => {
    expect(audienceLabelOf(email, audiences, { branch: 'us', component_instance_id: 'b' })).toBe(
      'Region: Americas',
    );
  });

  it('finds the conditional by branch key when no instance says which', () => {
    expect(audienceLabelOf(email, audiences, { branch: 'gold', component_instance_id: null })).toBe(
      'Membership: Gold members',
    );
  });

  it('takes the conditional the problem names over guessing by branch key', () => {
    const twins = audiencesOf(email, [membership, { ...region, branches: membership.branches }]);
    expect(
      audienceLabelOf(email, twins, { branch: 'gold', component_instance_id: null, conditional_id: 9 }),
    ).toBe('Region: Gold members');
  });

  it('is null outside conditionals, for unknown keys, and when the key is ambiguous', () => {
    expect(
      audienceLabelOf(email, audiences, { branch: 'null_branch', component_instance_id: null }),
    ).toBeNull();
    expect(audienceLabelOf(email, audiences, { branch: null, component_instance_id: 'a' })).toBeNull();
    const twins = audiencesOf(email, [membership, { ...region, branches: membership.branches }]);
    expect(audienceLabelOf(email, twins, { branch: 'gold', component_instance_id: null })).toBeNull();
  });

  it('uses the branch label alone when the email has one conditional', () => {
    const single = content({ component_instances: [instance('a', 7)] });
    expect(
      audienceLabelOf(single, audiencesOf(single, [membership]), {
        branch: 'gold',
        component_instance_id: 'a',
      }),
    ).toBe('Gold members');
  });
});
