import { describe, expect, it } from 'vitest';
import { type EmailState, permissionsForContentChange, valuesEqual } from './content-permissions.ts';
import type { ComponentInstance, EmailContent } from './types.ts';

const instance = (
  id: string,
  headline = 'Hello',
  conditionalId: number | null = null,
): ComponentInstance => ({
  id,
  component_id: 2,
  conditional_id: conditionalId,
  field_values: { null_branch: { 'en-US': { headline: { value: headline } } } },
});

function state(instances: ComponentInstance[], locales = ['en-US'], subject = 'Welcome'): EmailState {
  const content: EmailContent = {
    subject: { branch_content: { null_branch: { 'en-US': subject } } },
    preheader: { branch_content: { null_branch: { 'en-US': '' } } },
    container_component_instance: { id: 'container', component_id: 1, field_values: {} },
    component_instances: instances,
  };
  return { content, locales };
}

const keys = (before: EmailState, after: EmailState) =>
  [...permissionsForContentChange(before, after)].sort();

describe('permissionsForContentChange', () => {
  const before = state([instance('a'), instance('b')]);

  it('needs nothing when nothing changed', () => {
    expect(keys(before, state([instance('a'), instance('b')]))).toEqual([]);
  });

  it('needs update_emails for a changed value, subject or name', () => {
    expect(keys(before, state([instance('a', 'Changed'), instance('b')]))).toEqual(['update_emails']);
    expect(keys(before, state([instance('a'), instance('b')], ['en-US'], 'Other'))).toEqual([
      'update_emails',
    ]);
    const renamed = { ...instance('b'), name: 'Second hero' };
    expect(keys(before, state([instance('a'), renamed]))).toEqual(['update_emails']);
  });

  it('needs add_remove_reorder_email_components to reorder, and only that', () => {
    expect(keys(before, state([instance('b'), instance('a')]))).toEqual([
      'add_remove_reorder_email_components',
    ]);
  });

  it('counts adding and removing instances as structural', () => {
    expect(keys(before, state([instance('a')]))).toContain('add_remove_reorder_email_components');
    expect(keys(before, state([instance('a'), instance('b'), instance('c')]))).toContain(
      'add_remove_reorder_email_components',
    );
  });

  it('needs add_remove_conditional_from_components to attach or detach a conditional', () => {
    expect(keys(before, state([instance('a', 'Hello', 7), instance('b')]))).toEqual([
      'add_remove_conditional_from_components',
    ]);
    const withSubjectConditional = state([instance('a'), instance('b')]);
    withSubjectConditional.content.subject.conditional_id = 3;
    expect(keys(before, withSubjectConditional)).toEqual(['add_remove_conditional_from_components']);
  });

  it('does not ask for the conditional key when a new instance arrives with one', () => {
    expect(keys(before, state([instance('a'), instance('b'), instance('c', 'Hi', 7)]))).not.toContain(
      'add_remove_conditional_from_components',
    );
  });

  it('needs add_remove_locales_from_emails when the locale set changes, not its order', () => {
    const twoLocales = state([instance('a'), instance('b')], ['en-US', 'de-DE']);
    expect(keys(before, twoLocales)).toEqual(['add_remove_locales_from_emails']);
    expect(keys(twoLocales, state([instance('a'), instance('b')], ['de-DE', 'en-US']))).toEqual([]);
  });
});

describe('valuesEqual', () => {
  it('ignores key order and compares deeply', () => {
    expect(valuesEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(valuesEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(valuesEqual([1, 2], [2, 1])).toBe(false);
    expect(valuesEqual({ a: null }, { a: 0 })).toBe(false);
  });
});
