import {
  addLocale,
  copyLocaleValues,
  duplicateComponent,
  type EditorCommand,
  type FieldTarget,
  insertComponent,
  moveComponent,
  removeComponent,
  removeLocale,
  renameComponent,
  setConditional,
  setDefaultLocale,
  setFieldValue,
  setFieldValues,
  setGlobalLinkTrackingParameter,
  setHiddenInLocale,
  setLinkTrackingParameter,
  setPreheader,
  setPreheaderConditional,
  setSubject,
  setSubjectConditional,
  setTranslationStatus,
} from './commands.ts';
import type { EditorDocument } from './document.ts';

/** Instance ids of the sample document, for tests. */
export const sampleIds = {
  container: '00000000-0000-4000-8000-000000000000',
  hero: '00000000-0000-4000-8000-000000000001',
  tiered: '00000000-0000-4000-8000-000000000002',
  footer: '00000000-0000-4000-8000-000000000003',
} as const;

/** An id no instance of the sample document has. */
export const newId = '11111111-1111-4111-8111-111111111111';

/** The hero's English headline. */
export const heroHeadline: FieldTarget = {
  instanceId: sampleIds.hero,
  branch: 'null_branch',
  locale: 'en-US',
  variable: 'headline',
};

/**
 * A small email for tests, frozen at every depth so any command that modified its input would
 * throw: two locales, a container with a global field, a plain hero with a tracked link, a
 * component under conditional 7 (branches gold and silver) hidden in French, and a footer.
 */
export function sampleDocument(): EditorDocument {
  return deepFreeze<EditorDocument>({
    locales: ['en-US', 'fr-FR'],
    defaultLocale: 'en-US',
    content: {
      subject: {
        conditional_id: null,
        branch_content: { null_branch: { 'en-US': 'Hello', 'fr-FR': 'Bonjour' } },
      },
      preheader: { conditional_id: null, branch_content: { null_branch: { 'en-US': 'Read on' } } },
      container_component_instance: {
        id: sampleIds.container,
        component_id: 1,
        conditional_id: null,
        field_values: { null_branch: { 'en-US': { logo_url: { value: 'https://example.com/logo.png' } } } },
      },
      component_instances: [
        {
          id: sampleIds.hero,
          name: 'Hero',
          component_id: 2,
          conditional_id: null,
          field_values: {
            null_branch: {
              'en-US': {
                headline: { value: 'Hi' },
                link: { value: 'https://example.com', link_tracking_parameters: { utm_source: 'email' } },
              },
              'fr-FR': { headline: { value: 'Salut' } },
            },
          },
        },
        {
          id: sampleIds.tiered,
          component_id: 3,
          conditional_id: 7,
          field_values: {
            gold: { 'en-US': { headline: { value: 'Gold' } }, 'fr-FR': { headline: { value: 'Or' } } },
            silver: { 'en-US': { headline: { value: 'Silver' } } },
          },
          hidden_from_locales: { 'fr-FR': true },
        },
        {
          id: sampleIds.footer,
          component_id: 4,
          conditional_id: null,
          field_values: { null_branch: { 'en-US': { text: { value: 'Bye' } } } },
        },
      ],
      global_link_tracking_parameters: { utm_campaign: 'spring' },
    },
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** One valid command of every type against the sample document. */
export function everyCommand(): EditorCommand[] {
  return [
    insertComponent({ componentId: 9, index: 0, instanceId: newId }),
    moveComponent(sampleIds.hero, 2),
    removeComponent(sampleIds.footer),
    duplicateComponent(sampleIds.hero, newId),
    renameComponent(sampleIds.hero, 'Top'),
    setFieldValue(heroHeadline, 'Welcome'),
    setFieldValues(
      { instanceId: sampleIds.hero, branch: 'null_branch', locale: 'en-US' },
      { headline: 'From the feed' },
    ),
    setLinkTrackingParameter({ ...heroHeadline, variable: 'link' }, 'utm_medium', 'x'),
    setConditional(sampleIds.hero, 7, ['gold', 'silver']),
    setSubject('null_branch', 'en-US', 'Sale'),
    setPreheader('null_branch', 'en-US', 'Now'),
    setSubjectConditional(7, ['gold']),
    setPreheaderConditional(7, ['gold']),
    addLocale('de-DE'),
    removeLocale('fr-FR'),
    setDefaultLocale('fr-FR'),
    copyLocaleValues('fr-FR'),
    setTranslationStatus({ kind: 'field', ...heroHeadline, locale: 'fr-FR' }, 'translated'),
    setHiddenInLocale(sampleIds.hero, 'fr-FR', true),
    setGlobalLinkTrackingParameter('utm_medium', 'email'),
  ];
}
