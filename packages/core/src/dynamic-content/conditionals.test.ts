import { describe, expect, it } from 'vitest';
import type { EmailContent } from '../content/types.ts';
import {
  type ConditionalDefinition,
  conditionalReferenceProblems,
  conditionalSyntaxFor,
  conditionalUsage,
  defaultBranchKey,
} from './conditionals.ts';

const tiers: ConditionalDefinition = {
  id: 7,
  branches: [
    { key: 'gold', label: 'Gold' },
    { key: 'other', label: 'Other' },
  ],
  default_syntax: { closing: 'END', branch_values: { gold: 'IF', other: 'ELSE' } },
  dynamic_content_profile_syntaxes: { p1: { closing: 'end', branch_values: { gold: 'if', other: 'else' } } },
  can_be_used_in_subject_and_preheader: false,
};

const content = (extra: Partial<EmailContent> = {}): EmailContent => ({
  subject: { branch_content: { null_branch: { 'en-US': 'Hi' } } },
  preheader: { branch_content: { null_branch: { 'en-US': '' } } },
  container_component_instance: { id: 'c', component_id: 1, field_values: {} },
  component_instances: [
    {
      id: 'a',
      component_id: 2,
      conditional_id: 7,
      field_values: { gold: { 'en-US': { h: { value: 'G' } } }, other: { 'en-US': {} } },
    },
  ],
  ...extra,
});

describe('conditionals', () => {
  it('use the profile’s syntax when they have one, else the default unless it is empty', () => {
    expect(conditionalSyntaxFor(tiers, 'p1')?.closing).toBe('end');
    expect(conditionalSyntaxFor(tiers, 'p2')?.closing).toBe('END');
    const blank = { closing: ' ', branch_values: { gold: '', other: '' } };
    expect(conditionalSyntaxFor({ ...tiers, default_syntax: blank }, 'p2')).toBeNull();
    expect(conditionalSyntaxFor({ ...tiers, default_syntax: blank }, 'p1')?.closing).toBe('end');
  });

  it('default to the chosen branch, else the last one', () => {
    expect(defaultBranchKey(tiers)).toBe('other');
    expect(defaultBranchKey({ ...tiers, default_branch_key: 'gold' })).toBe('gold');
    expect(defaultBranchKey({ ...tiers, default_branch_key: 'gone' })).toBe('other');
    expect(defaultBranchKey({ ...tiers, branches: [] })).toBeNull();
  });

  it('know where content uses them and which branches hold content', () => {
    const usage = conditionalUsage(
      content({
        preheader: { conditional_id: 7, branch_content: { other: { 'en-US': 'x' }, gold: { 'en-US': '' } } },
      }),
      7,
    );
    expect([...usage.branchKeysWithContent].sort()).toEqual(['gold', 'other']);
    expect(usage.instanceIds).toEqual(['a']);
    expect(usage.inSubjectOrPreheader).toBe(true);
    expect(conditionalUsage(content(), 8).instanceIds).toEqual([]);
  });

  it('report unknown conditionals, unknown branch keys and conditionals not allowed in the subject', () => {
    expect(conditionalReferenceProblems(content(), [tiers])).toEqual({});
    const bad = content({
      subject: { conditional_id: 7, branch_content: { gold: { 'en-US': 'G' } } },
      component_instances: [
        { id: 'a', component_id: 2, conditional_id: 7, field_values: { silver: {} } },
        { id: 'b', component_id: 2, conditional_id: 9, field_values: {} },
      ],
    });
    expect(conditionalReferenceProblems(bad, [tiers], 'email_content')).toEqual({
      'email_content.subject.conditional_id': ['cannot be used in the subject and preheader'],
      'email_content.component_instances.0': ['holds branch keys the conditional does not have: silver'],
      'email_content.component_instances.1.conditional_id': ['is not a conditional of this workspace'],
    });
  });
});
