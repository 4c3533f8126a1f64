import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  copyIntoAddedLocales,
  copyLocaleContent,
  withBranchedTextStatus,
  workOverwrittenByCopy,
} from './copy-locale.ts';
import type { BranchedText, ComponentInstance, EmailContent, FieldValue } from './types.ts';

const heroId = '6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
const tieredId = '0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d';

function content(): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Spring sale', 'fr-FR': 'Soldes' } } },
    preheader: { conditional_id: 4, branch_content: { gold: { 'en-US': 'For you' }, silver: {} } },
    container_component_instance: {
      id: 'c0c0c0c0-0000-4000-8000-000000000000',
      component_id: 1,
      field_values: { null_branch: { 'en-US': { background: { value: '#ffffff' } } } },
    },
    component_instances: [
      {
        id: heroId,
        component_id: 2,
        field_values: {
          null_branch: {
            'en-US': {
              headline: { value: 'Spring sale' },
              image: { value: 'https://cdn.example/hero.png' },
              alignment: { value: 'center' },
              url: { value: 'https://example.com/shop', link_tracking_parameters: { utm_content: 'hero' } },
            },
          },
        },
      },
      {
        id: tieredId,
        component_id: 3,
        conditional_id: 4,
        field_values: {
          gold: { 'en-US': { headline: { value: 'Gold' } }, 'de-DE': { headline: { value: 'Alt' } } },
          silver: { 'fr-FR': { headline: { value: 'Argent' } } },
        },
        hidden_from_locales: { 'en-US': true },
      },
    ],
  };
}

describe('copyLocaleContent', () => {
  it('copies every value of every instance and branch, the subject and the preheader, each marked copied', () => {
    const original = content();
    const frozen = JSON.stringify(original);
    const next = copyLocaleContent(original, 'en-US', 'de-DE');
    expect(JSON.stringify(original)).toBe(frozen);
    expect(next.component_instances[0]?.field_values.null_branch?.['de-DE']).toEqual({
      headline: { value: 'Spring sale', translation_status: 'copied' },
      image: { value: 'https://cdn.example/hero.png', translation_status: 'copied' },
      alignment: { value: 'center', translation_status: 'copied' },
      url: {
        value: 'https://example.com/shop',
        link_tracking_parameters: { utm_content: 'hero' },
        translation_status: 'copied',
      },
    });
    // A branch where German had a value is replaced; one where English has nothing is left alone.
    expect(next.component_instances[1]?.field_values).toEqual({
      gold: {
        'en-US': { headline: { value: 'Gold' } },
        'de-DE': { headline: { value: 'Gold', translation_status: 'copied' } },
      },
      silver: { 'fr-FR': { headline: { value: 'Argent' } } },
    });
    expect(next.container_component_instance.field_values.null_branch?.['de-DE']).toEqual({
      background: { value: '#ffffff', translation_status: 'copied' },
    });
    expect(next.subject).toEqual({
      branch_content: { null_branch: { 'en-US': 'Spring sale', 'fr-FR': 'Soldes', 'de-DE': 'Spring sale' } },
      translation_status: { null_branch: { 'de-DE': 'copied' } },
    });
    expect(next.preheader).toEqual({
      conditional_id: 4,
      branch_content: { gold: { 'en-US': 'For you', 'de-DE': 'For you' }, silver: {} },
      translation_status: { gold: { 'de-DE': 'copied' } },
    });
    // Which locales an instance is hidden from is not content: it is not copied.
    expect(next.component_instances[1]?.hidden_from_locales).toEqual({ 'en-US': true });
  });

  it('copies one instance only when named, and shares everything else', () => {
    const original = content();
    const next = copyLocaleContent(original, 'en-US', 'fr-FR', { instanceId: heroId });
    expect(next.component_instances[0]?.field_values.null_branch?.['fr-FR']?.headline).toEqual({
      value: 'Spring sale',
      translation_status: 'copied',
    });
    expect(next.component_instances[1]).toBe(original.component_instances[1]);
    expect(next.container_component_instance).toBe(original.container_component_instance);
    expect(next.subject).toBe(original.subject);
  });

  it('fills only what the target lacks in fill mode', () => {
    const original = content();
    const next = copyLocaleContent(original, 'en-US', 'fr-FR', { mode: 'fill' });
    expect(next.subject.branch_content.null_branch?.['fr-FR']).toBe('Soldes');
    expect(next.subject.translation_status).toBeUndefined();
    expect(next.preheader.branch_content.gold?.['fr-FR']).toBe('For you');
    const german = copyLocaleContent(original, 'en-US', 'de-DE', { mode: 'fill' });
    expect(german.component_instances[1]?.field_values.gold?.['de-DE']).toEqual({
      headline: { value: 'Alt' },
    });
  });

  it('returns the input itself when nothing changes', () => {
    const once = copyLocaleContent(content(), 'en-US', 'de-DE');
    expect(copyLocaleContent(once, 'en-US', 'de-DE')).toBe(once);
    expect(copyLocaleContent(once, 'en-US', 'en-US')).toBe(once);
    expect(copyLocaleContent(once, 'it-IT', 'de-DE')).toBe(once);
  });

  it('copies the source’s value, not its status', () => {
    const original = content();
    const hero = original.component_instances[0] as ComponentInstance;
    (hero.field_values.null_branch as Record<string, Record<string, FieldValue>>)['fr-FR'] = {
      headline: { value: 'Soldes', translation_status: 'translated' },
    };
    const next = copyLocaleContent(original, 'fr-FR', 'fr-CA');
    expect(next.component_instances[0]?.field_values.null_branch?.['fr-CA']).toEqual({
      headline: { value: 'Soldes', translation_status: 'copied' },
    });
  });
});

describe('copyIntoAddedLocales', () => {
  it('fills each locale that was added from the source, and no other', () => {
    const next = copyIntoAddedLocales(content(), {
      previousLocales: ['en-US', 'fr-FR'],
      locales: ['en-US', 'fr-FR', 'de-DE', 'it-IT'],
      source: 'en-US',
    });
    expect(next.subject.branch_content.null_branch).toEqual({
      'en-US': 'Spring sale',
      'fr-FR': 'Soldes',
      'de-DE': 'Spring sale',
      'it-IT': 'Spring sale',
    });
    expect(next.component_instances[0]?.field_values.null_branch?.['fr-FR']).toBeUndefined();
  });
});

describe('workOverwrittenByCopy', () => {
  it('counts translated, edited and unmarked different values a copy would replace, not untouched copies', () => {
    const original = content();
    expect(workOverwrittenByCopy(original, 'en-US', 'de-DE')).toBe(1); // the tiered gold headline "Alt"
    expect(workOverwrittenByCopy(original, 'en-US', 'fr-FR')).toBe(1); // the subject "Soldes"
    const copied = copyLocaleContent(original, 'en-US', 'de-DE');
    expect(workOverwrittenByCopy(copied, 'en-US', 'de-DE')).toBe(0);
    const hero = copied.component_instances[0] as ComponentInstance;
    const german = hero.field_values.null_branch?.['de-DE'] as Record<string, FieldValue>;
    german.headline = { value: 'Spring sale', translation_status: 'translated' };
    german.alignment = { value: 'left', translation_status: 'edited' };
    expect(workOverwrittenByCopy(copied, 'en-US', 'de-DE')).toBe(2);
    expect(workOverwrittenByCopy(copied, 'de-DE', 'de-DE')).toBe(0);
  });
});

describe('withBranchedTextStatus', () => {
  it('sets and removes one status, dropping emptied levels', () => {
    const text: BranchedText = { branch_content: { null_branch: { 'fr-FR': 'Salut' } } };
    const marked = withBranchedTextStatus(text, 'null_branch', 'fr-FR', 'edited');
    expect(marked.translation_status).toEqual({ null_branch: { 'fr-FR': 'edited' } });
    expect(withBranchedTextStatus(marked, 'null_branch', 'fr-FR', 'edited')).toBe(marked);
    expect(withBranchedTextStatus(marked, 'null_branch', 'fr-FR', undefined)).toEqual(text);
  });
});

const locales = ['en-US', 'fr-FR', 'de-DE', 'ar-SA'] as const;
const branches = ['null_branch', 'gold', 'silver'] as const;
const fieldValueArbitrary: fc.Arbitrary<FieldValue> = fc.record(
  {
    value: fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null)),
    link_tracking_parameters: fc.dictionary(fc.constantFrom('utm_source', 'utm_content'), fc.string()),
    translation_status: fc.constantFrom('copied' as const, 'translated' as const, 'edited' as const),
  },
  { requiredKeys: ['value'] },
);
const byLocaleArbitrary = <T>(value: fc.Arbitrary<T>) =>
  fc.dictionary(fc.constantFrom(...locales), value, { maxKeys: 4 });
const byBranchArbitrary = <T>(value: fc.Arbitrary<T>) =>
  fc.dictionary(fc.constantFrom(...branches), byLocaleArbitrary(value), { maxKeys: 3 });
const instanceArbitrary = (id: string): fc.Arbitrary<ComponentInstance> =>
  fc.record({
    id: fc.constant(id),
    component_id: fc.integer({ min: 1, max: 9 }),
    field_values: byBranchArbitrary(
      fc.dictionary(fc.constantFrom('headline', 'image', 'url', 'align'), fieldValueArbitrary, {
        maxKeys: 4,
      }),
    ),
  });
const textArbitrary: fc.Arbitrary<BranchedText> = fc.record({
  branch_content: byBranchArbitrary(fc.string({ maxLength: 8 })),
});
const contentArbitrary: fc.Arbitrary<EmailContent> = fc.record({
  subject: textArbitrary,
  preheader: textArbitrary,
  container_component_instance: instanceArbitrary('container'),
  component_instances: fc
    .integer({ min: 0, max: 4 })
    .chain((count) =>
      fc.tuple(...Array.from({ length: count }, (_, index) => instanceArbitrary(`i${index}`))),
    ),
});

const withoutStatus = ({ translation_status: _status, ...rest }: FieldValue) => rest;

describe('copyLocaleContent, properties', () => {
  it('copy then read gives the source’s values in every instance and branch, marked copied, and touches no other locale', () => {
    fc.assert(
      fc.property(
        contentArbitrary,
        fc.constantFrom(...locales),
        fc.constantFrom(...locales),
        (original, from, to) => {
          fc.pre(from !== to);
          const frozen = JSON.stringify(original);
          const next = copyLocaleContent(original, from, to);
          expect(JSON.stringify(original)).toBe(frozen);
          const pairs = [
            [original.container_component_instance, next.container_component_instance],
            ...original.component_instances.map((instance, index) => [
              instance,
              next.component_instances[index] as ComponentInstance,
            ]),
          ] as const;
          for (const [before, after] of pairs) {
            for (const [branch, byLocale] of Object.entries(before.field_values)) {
              const source = byLocale[from];
              const copied = after.field_values[branch]?.[to];
              if (source === undefined) {
                expect(copied).toEqual(byLocale[to]);
              } else {
                expect(Object.keys(copied ?? {}).sort()).toEqual(Object.keys(source).sort());
                for (const [variable, value] of Object.entries(source)) {
                  expect(withoutStatus(copied?.[variable] as FieldValue)).toEqual(withoutStatus(value));
                  expect(copied?.[variable]?.translation_status).toBe('copied');
                }
              }
              for (const locale of locales) {
                if (locale !== to) expect(after.field_values[branch]?.[locale]).toEqual(byLocale[locale]);
              }
            }
          }
          for (const part of ['subject', 'preheader'] as const) {
            for (const [branch, byLocale] of Object.entries(original[part].branch_content)) {
              const expected = byLocale[from] ?? byLocale[to];
              expect(next[part].branch_content[branch]?.[to]).toBe(expected);
              if (byLocale[from] !== undefined)
                expect(next[part].translation_status?.[branch]?.[to]).toBe('copied');
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 30_000);

  it('in fill mode never changes a value the target already holds (unless blank text)', () => {
    fc.assert(
      fc.property(contentArbitrary, fc.constantFrom(...locales), (original, to) => {
        fc.pre(to !== 'en-US');
        const next = copyLocaleContent(original, 'en-US', to, { mode: 'fill' });
        const instances = [original.container_component_instance, ...original.component_instances];
        const nextInstances = [next.container_component_instance, ...next.component_instances];
        instances.forEach((instance, index) => {
          for (const [branch, byLocale] of Object.entries(instance.field_values)) {
            for (const [variable, value] of Object.entries(byLocale[to] ?? {})) {
              const blank = typeof value.value === 'string' && value.value.trim() === '';
              if (!blank) expect(nextInstances[index]?.field_values[branch]?.[to]?.[variable]).toEqual(value);
            }
          }
        });
      }),
      { numRuns: 150 },
    );
  }, 30_000);
});
