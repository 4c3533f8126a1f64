import type { ComponentDefinition } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { instanceId, testDocument } from '../test-session.tsx';
import { type FieldContext, fieldsOutsideThePreview, resolveField } from './field-target.ts';

const card = {
  id: 2,
  label: 'Card',
  container: false,
  field_definitions: [
    { label: 'Title', liquid_variable: 'title', type: 'text', default_value: 'Default title' },
    { label: 'Body', liquid_variable: 'body', type: 'rich_text', default_value: '<p>Body</p>' },
    { label: 'Show link', liquid_variable: 'show_link', type: 'boolean', default_value: false },
    {
      label: 'Link',
      liquid_variable: 'link',
      type: 'url',
      default_value: '',
      visible_if: 'show_link == true',
    },
    { label: 'Secret', liquid_variable: 'secret', type: 'text', default_value: '', hidden_in_editor: true },
  ],
} as unknown as ComponentDefinition;

/** The test email with the instance under a two-branch conditional, a title stored in each branch. */
function context(overrides: Partial<FieldContext> = {}): FieldContext {
  const { content } = testDocument();
  const instance = content.component_instances[0];
  if (!instance) throw new Error('no instance');
  instance.conditional_id = 7;
  instance.field_values = {
    members: { 'en-US': { title: { value: 'For members' }, show_link: { value: true } } },
    everyone: { 'en-US': { title: { value: 'For everyone' } } },
  };
  return {
    content,
    componentsById: new Map([[2, card]]),
    conditionals: [{ id: 7, branches: [{ key: 'everyone' }, { key: 'members' }] }],
    branchSelection: {},
    locale: 'en-US',
    ...overrides,
  };
}

describe('resolveField', () => {
  it('addresses the branch the side panel edits: the one picked, else the conditional’s first', () => {
    expect(resolveField(context(), instanceId, 'title')).toMatchObject({
      target: { instanceId, branch: 'everyone', locale: 'en-US', variable: 'title' },
      value: 'For everyone',
    });
    expect(resolveField(context({ branchSelection: { '7': 'members' } }), instanceId, 'title')).toMatchObject(
      {
        target: { branch: 'members' },
        value: 'For members',
      },
    );
  });

  it('shows the default of a value not stored in the locale, and nothing for what is gone', () => {
    expect(resolveField(context({ locale: 'de-DE' }), instanceId, 'title')?.value).toBe('Default title');
    expect(resolveField(context(), instanceId, 'missing')).toBeNull();
    expect(resolveField(context(), 'another-instance', 'title')).toBeNull();
  });
});

describe('fieldsOutsideThePreview', () => {
  it('lists the fields the side panel shows but the preview does not edit in place', () => {
    const names = (fields: { liquid_variable: string }[]) => fields.map((field) => field.liquid_variable);
    // In the branch shown to everyone the link is switched off, so the side panel does not show it.
    expect(names(fieldsOutsideThePreview(context(), instanceId, new Set(['title', 'body'])))).toEqual([
      'show_link',
    ]);
    expect(
      names(
        fieldsOutsideThePreview(
          context({ branchSelection: { '7': 'members' } }),
          instanceId,
          new Set(['title']),
        ),
      ),
    ).toEqual(['body', 'show_link', 'link']);
  });
});
