import type { ComponentInstance, EditorDocument } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { describeDifferences } from './differences.ts';

const container: ComponentInstance = { id: 'c', component_id: 1, field_values: {} };
const hero: ComponentInstance = { id: 'h', name: 'Hero', component_id: 2, field_values: {} };
const text: ComponentInstance = { id: 't', name: 'Text', component_id: 3, field_values: {} };

function documentWith(
  instances: ComponentInstance[],
  overrides: Partial<EditorDocument> = {},
): EditorDocument {
  return {
    locales: ['en-US'],
    defaultLocale: 'en-US',
    content: {
      subject: { branch_content: { null_branch: { 'en-US': 'Hi' } } },
      preheader: { branch_content: {} },
      container_component_instance: container,
      component_instances: instances,
    },
    ...overrides,
  };
}

const labelOf = (instance: ComponentInstance) => instance.name ?? 'Container';

describe('describeDifferences', () => {
  it('says nothing when both sides hold the same document', () => {
    expect(describeDifferences(documentWith([hero]), documentWith([hero]), labelOf)).toEqual([]);
  });

  it('names added, removed, changed and reordered instances', () => {
    const changedHero = {
      ...hero,
      field_values: { null_branch: { 'en-US': { headline: { value: 'New' } } } },
    };
    const mine = documentWith([hero, text]);
    const theirs = documentWith([
      text,
      changedHero,
      { id: 'n', name: 'Footer', component_id: 4, field_values: {} },
    ]);
    expect(describeDifferences(mine, theirs, labelOf)).toEqual([
      'Hero differs.',
      'They added Footer.',
      'The order of components differs.',
    ]);
    expect(describeDifferences(theirs, mine, labelOf)).toContain('Footer is only in your version.');
  });

  it('ignores key order, as the server returns content with its keys sorted', () => {
    const reordered = {
      field_values: hero.field_values,
      component_id: hero.component_id,
      name: hero.name,
      id: hero.id,
    };
    expect(describeDifferences(documentWith([hero]), documentWith([reordered]), labelOf)).toEqual([]);
  });

  it('speaks of the saved version when the other side is the saved copy', () => {
    const saved = documentWith([hero, { id: 'n', name: 'Footer', component_id: 4, field_values: {} }], {
      locales: ['en-US', 'de-DE'],
    });
    expect(describeDifferences(documentWith([hero]), saved, labelOf, 'saved')).toEqual([
      'Locales: yours en-US; saved en-US, de-DE.',
      'Footer is only in the saved version.',
    ]);
  });

  it('reports subject and locale changes', () => {
    const theirs = documentWith([], { locales: ['en-US', 'de-DE'] });
    theirs.content.subject = { branch_content: { null_branch: { 'en-US': 'Hello' } } };
    expect(describeDifferences(documentWith([]), theirs, labelOf)).toEqual([
      'The subject differs.',
      'Locales: yours en-US; theirs en-US, de-DE.',
    ]);
  });

  it('names the email-wide link tracking parameters that differ, with both values', () => {
    const mine = documentWith([]);
    mine.content.global_link_tracking_parameters = { utm_campaign: 'spring', utm_medium: 'email' };
    const theirs = documentWith([]);
    theirs.content.global_link_tracking_parameters = { utm_campaign: 'summer', utm_source: 'news' };
    theirs.content.global_link_tracking_parameters.utm_medium = 'email';
    expect(describeDifferences(mine, theirs, labelOf)).toEqual([
      'Email link tracking differs, yours → theirs: utm_campaign (“spring” → “summer”), utm_source (not set → “news”).',
    ]);
  });
});
