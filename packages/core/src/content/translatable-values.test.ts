import { describe, expect, it } from 'vitest';
import type { ComponentDefinition } from '../render/design-system.ts';
import {
  applyTranslations,
  collectTranslatableValues,
  parseTranslatableValueKey,
  translatableValueKey,
  translationCompletion,
  translationGap,
  translationRows,
} from './translatable-values.ts';
import type { EmailContent } from './types.ts';

const hero: ComponentDefinition = {
  id: 2,
  name: 'hero',
  label: 'Hero',
  container: false,
  template: '<h1>{{ headline }}</h1>{{ body }}<a href="{{ url }}">{{ cta }}</a>',
  field_definitions: [
    {
      type: 'text',
      label: 'Headline',
      liquid_variable: 'headline',
      default_value: 'Your headline',
      validations: { max_length: 12 },
    },
    {
      type: 'rich_text',
      label: 'Body',
      liquid_variable: 'body',
      default_value: '<p></p>',
      validations: { must_not_be_blank: true },
    },
    { type: 'url', label: 'Link', liquid_variable: 'url', default_value: 'https://example.com' },
    { type: 'text', label: 'Price', liquid_variable: 'cta', default_value: '', hidden_from_ai: true },
  ],
};
const container: ComponentDefinition = {
  id: 1,
  name: 'container',
  label: 'Email',
  container: true,
  template: '{{ children }}<p>{{ footer }}</p>',
  field_definitions: [{ type: 'text', label: 'Footer', liquid_variable: 'footer', default_value: '' }],
};
const heroId = '6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
const vipId = '0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d';
const containerId = 'c0c0c0c0-0000-4000-8000-000000000000';

function content(): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Hello', 'fr-FR': 'Bonjour', 'de-DE': 'Hello' } } },
    preheader: { conditional_id: 4, branch_content: { gold: { 'en-US': 'For you' } } },
    container_component_instance: {
      id: containerId,
      component_id: 1,
      field_values: { null_branch: { 'en-US': { footer: { value: '1 Main St' } } } },
    },
    component_instances: [
      {
        id: heroId,
        name: 'Top hero',
        component_id: 2,
        field_values: {
          null_branch: {
            'en-US': {
              headline: { value: 'Spring sale' },
              body: { value: '<p>Ten days, <strong>half</strong> price.</p>' },
              url: { value: 'https://example.com/sale' },
              cta: { value: '$10' },
            },
            'fr-FR': { headline: { value: 'Soldes' }, url: { value: 'https://example.com/fr' } },
          },
        },
      },
      {
        id: vipId,
        component_id: 2,
        conditional_id: 4,
        hidden_from_locales: { 'de-DE': true },
        field_values: { gold: { 'en-US': { headline: { value: 'Gold deal' } } } },
      },
      { id: 'deleted-component', component_id: 99, field_values: {} },
    ],
  };
}

const components = [container, hero];
const branchKeysOf = (id: number) => (id === 4 ? ['gold', 'silver'] : undefined);

describe('translatable values', () => {
  it('collects subject, preheader and every text and rich-text field in every branch, in reading order', () => {
    const values = collectTranslatableValues({ content: content(), components, branchKeysOf });
    expect(values.map((value) => value.key)).toEqual([
      'subject.null_branch',
      'preheader.gold',
      'preheader.silver',
      `${containerId}.footer.null_branch`,
      `${heroId}.headline.null_branch`,
      `${heroId}.body.null_branch`,
      `${heroId}.cta.null_branch`,
      `${vipId}.headline.gold`,
      `${vipId}.body.gold`,
      `${vipId}.cta.gold`,
      `${vipId}.headline.silver`,
      `${vipId}.body.silver`,
      `${vipId}.cta.silver`,
    ]);
    const [subject, , , footer, headline, body, cta, vipHeadline] = values;
    expect(subject).toMatchObject({
      componentLabel: 'Subject',
      fieldLabel: 'Subject',
      format: 'text',
      definition: null,
      texts: { 'en-US': 'Hello', 'fr-FR': 'Bonjour', 'de-DE': 'Hello' },
    });
    expect(footer).toMatchObject({ componentLabel: 'Email', fieldLabel: 'Footer' });
    expect(headline).toMatchObject({
      componentLabel: 'Top hero',
      fieldLabel: 'Headline',
      texts: { 'en-US': 'Spring sale', 'fr-FR': 'Soldes' },
      fallbackText: 'Your headline',
    });
    expect(body?.format).toBe('rich_text');
    expect(cta?.hiddenFromAi).toBe(true);
    expect(vipHeadline).toMatchObject({ componentLabel: 'Hero', hiddenFromLocales: ['de-DE'] });
  });

  it('reads back the keys it writes', () => {
    for (const source of [
      { kind: 'subject', branch: 'null_branch' },
      { kind: 'preheader', branch: 'gold' },
      { kind: 'field', instanceId: heroId, liquidVariable: 'headline', branch: 'null_branch' },
    ] as const) {
      expect(parseTranslatableValueKey(translatableValueKey(source))).toEqual(source);
    }
    for (const bad of [
      '',
      'subject',
      'subject.',
      `${heroId}`,
      `${heroId}.headline`,
      `${heroId}..x`,
      '.a.b',
    ]) {
      expect(parseTranslatableValueKey(bad), bad).toBeNull();
    }
  });

  it('builds spreadsheet rows: the default locale as seen (stored, else the default value), others as stored', () => {
    const values = collectTranslatableValues({ content: content(), components, branchKeysOf });
    const rows = translationRows(values, { defaultLocale: 'en-US', locales: ['en-US', 'fr-FR', 'de-DE'] });
    expect(rows[0]).toEqual({
      key: 'subject.null_branch',
      componentLabel: 'Subject',
      fieldLabel: 'Subject',
      format: 'text',
      sourceText: 'Hello',
      targetTexts: { 'fr-FR': 'Bonjour', 'de-DE': 'Hello' },
    });
    expect(rows.find((row) => row.key === `${heroId}.headline.null_branch`)?.targetTexts).toEqual({
      'fr-FR': 'Soldes',
      'de-DE': '',
    });
    expect(rows.find((row) => row.key === `${vipId}.headline.silver`)?.sourceText).toBe('Your headline');
  });

  it('finds what is left to translate per locale, skipping values without letters and hidden instances', () => {
    const values = collectTranslatableValues({ content: content(), components, branchKeysOf });
    const byKey = new Map(values.map((value) => [value.key, value]));
    const gap = (key: string, locale: string) => {
      const value = byKey.get(key);
      if (!value) throw new Error(`no ${key}`);
      return translationGap(value, locale, 'en-US');
    };
    expect(gap('subject.null_branch', 'fr-FR')).toBeNull();
    expect(gap('subject.null_branch', 'de-DE')).toBe('same_as_default');
    expect(gap(`${heroId}.headline.null_branch`, 'de-DE')).toBe('missing');
    expect(gap(`${heroId}.cta.null_branch`, 'de-DE')).toBeNull(); // '$10' has no letters
    expect(gap(`${vipId}.headline.gold`, 'de-DE')).toBeNull(); // hidden in de-DE
    expect(gap(`${vipId}.headline.gold`, 'fr-FR')).toBe('missing');
    // Entered in no locale: every locale shows the design's default, which is not reported.
    expect(gap(`${vipId}.headline.silver`, 'fr-FR')).toBeNull();
    expect(gap('subject.null_branch', 'en-US')).toBeNull();

    const completion = translationCompletion(values, {
      defaultLocale: 'en-US',
      locales: ['en-US', 'fr-FR', 'de-DE'],
    });
    // Needing translation: subject, preheader.gold, footer, hero headline and body, and the gold
    // VIP headline. The prices have no letters; the rest holds no en-US text.
    expect(completion).toEqual({
      'fr-FR': { total: 6, translated: 2 },
      'de-DE': { total: 5, translated: 0 },
    });
  });

  it('applies translations all or nothing, counting changed and unchanged texts per locale', () => {
    const original = content();
    const frozen = JSON.stringify(original);
    const values = collectTranslatableValues({ content: original, components, branchKeysOf });
    const result = applyTranslations({
      content: original,
      values,
      defaultLocale: 'en-US',
      locales: ['en-US', 'fr-FR', 'de-DE'],
      markUnchangedTranslated: true,
      updates: [
        { key: 'subject.null_branch', locale: 'fr-FR', text: 'Bonjour' },
        { key: 'subject.null_branch', locale: 'de-DE', text: 'Hallo' },
        { key: 'preheader.silver', locale: 'fr-FR', text: 'Pour vous' },
        { key: `${heroId}.headline.null_branch`, locale: 'fr-FR', text: 'Promo' },
        { key: `${heroId}.body.null_branch`, locale: 'de-DE', text: '<p>Zehn Tage</p>\r\n' },
        { key: `${vipId}.headline.gold`, locale: 'fr-FR', text: 'Offre or' },
      ],
    });
    expect(result.problems).toEqual([]);
    expect(result.changed).toEqual({ 'fr-FR': 3, 'de-DE': 2 });
    expect(result.unchanged).toEqual({ 'fr-FR': 1, 'de-DE': 0 });
    expect(JSON.stringify(original)).toBe(frozen);
    const next = result.content;
    expect(next.subject.branch_content.null_branch).toEqual({
      'en-US': 'Hello',
      'fr-FR': 'Bonjour',
      'de-DE': 'Hallo',
    });
    // Every text written is marked translated, the one that was already so included.
    expect(next.subject.translation_status).toEqual({
      null_branch: { 'fr-FR': 'translated', 'de-DE': 'translated' },
    });
    expect(next.preheader.branch_content).toEqual({
      gold: { 'en-US': 'For you' },
      silver: { 'fr-FR': 'Pour vous' },
    });
    expect(next.preheader.translation_status).toEqual({ silver: { 'fr-FR': 'translated' } });
    const [nextHero, nextVip, deleted] = next.component_instances;
    expect(nextHero?.field_values.null_branch?.['fr-FR']).toEqual({
      headline: { value: 'Promo', translation_status: 'translated' },
      url: { value: 'https://example.com/fr' },
    });
    expect(nextHero?.field_values.null_branch?.['de-DE']).toEqual({
      body: { value: '<p>Zehn Tage</p>\r\n', translation_status: 'translated' },
    });
    expect(nextHero?.field_values.null_branch?.['en-US']).toEqual(
      original.component_instances[0]?.field_values.null_branch?.['en-US'],
    );
    expect(nextVip?.field_values.gold?.['fr-FR']).toEqual({
      headline: { value: 'Offre or', translation_status: 'translated' },
    });
    // What was not written is shared, not copied.
    expect(deleted).toBe(original.component_instances[2]);
    expect(next.container_component_instance).toBe(original.container_component_instance);
  });

  it('keeps other properties of a stored value, such as link tracking parameters', () => {
    const original = content();
    const hero0 = original.component_instances[0];
    if (!hero0?.field_values.null_branch?.['fr-FR']) throw new Error('fixture');
    hero0.field_values.null_branch['fr-FR'].headline = {
      value: 'Soldes',
      link_tracking_parameters: { utm: 'x' },
    };
    const values = collectTranslatableValues({ content: original, components, branchKeysOf });
    const result = applyTranslations({
      content: original,
      values,
      defaultLocale: 'en-US',
      locales: ['en-US', 'fr-FR'],
      updates: [{ key: `${heroId}.headline.null_branch`, locale: 'fr-FR', text: 'Promo' }],
    });
    expect(result.content.component_instances[0]?.field_values.null_branch?.['fr-FR']?.headline).toEqual({
      value: 'Promo',
      link_tracking_parameters: { utm: 'x' },
      translation_status: 'translated',
    });
  });

  it('refuses unknown keys, foreign and default locales, repeats and texts that break validations', () => {
    const original = content();
    const values = collectTranslatableValues({ content: original, components, branchKeysOf });
    const result = applyTranslations({
      content: original,
      values,
      defaultLocale: 'en-US',
      locales: ['en-US', 'fr-FR'],
      updates: [
        { key: 'subject.null_branch', locale: 'fr-FR', text: 'Salut' },
        { key: 'nonsense', locale: 'fr-FR', text: 'x' },
        { key: `${heroId}.nothing.null_branch`, locale: 'fr-FR', text: 'x' },
        { key: 'subject.null_branch', locale: 'de-DE', text: 'Hallo' },
        { key: 'subject.null_branch', locale: 'en-US', text: 'Hi' },
        { key: 'subject.null_branch', locale: 'fr-FR', text: 'Coucou' },
        { key: `${heroId}.headline.null_branch`, locale: 'fr-FR', text: 'Beaucoup trop long' },
        { key: `${heroId}.body.null_branch`, locale: 'fr-FR', text: '<p> </p>' },
        { key: 'preheader.gold', locale: 'fr-FR', text: 'x'.repeat(21) },
      ],
      maxLength: { branchedText: 20 },
    });
    expect(result.problems).toEqual([
      {
        index: 1,
        part: 'key',
        messages: [
          'is not a key of a translatable value (subject.<branch>, preheader.<branch> or <instance id>.<field>.<branch>)',
        ],
      },
      { index: 2, part: 'key', messages: ['is not a translatable value of this email'] },
      { index: 3, part: 'locale', messages: ['is not a locale of this email'] },
      {
        index: 4,
        part: 'locale',
        messages: ['is the default locale: its texts are the source, edited in the editor'],
      },
      { index: 5, part: 'key', messages: ['is given twice for this locale'] },
      { index: 6, part: 'text', messages: ['must be at most 12 characters'] },
      { index: 7, part: 'text', messages: ["can't be blank"] },
      { index: 8, part: 'text', messages: ['must be at most 20 characters'] },
    ]);
    expect(result.content).toBe(original);
  });

  it('marks a text already stored as translated when asked, as an AI keeping a brand name decided', () => {
    const original = content();
    const values = collectTranslatableValues({ content: original, components, branchKeysOf });
    const unmarked = applyTranslations({
      content: original,
      values,
      defaultLocale: 'en-US',
      locales: ['en-US', 'de-DE'],
      updates: [{ key: 'subject.null_branch', locale: 'de-DE', text: 'Hello' }],
    });
    // A file's cell holding what was stored (perhaps a copy) confirms nothing.
    expect(unmarked.content).toBe(original);
    const result = applyTranslations({
      content: original,
      values,
      defaultLocale: 'en-US',
      locales: ['en-US', 'de-DE'],
      markUnchangedTranslated: true,
      updates: [{ key: 'subject.null_branch', locale: 'de-DE', text: 'Hello' }],
    });
    expect(result.changed).toEqual({ 'de-DE': 0 });
    expect(result.unchanged).toEqual({ 'de-DE': 1 });
    expect(result.content.subject.translation_status).toEqual({ null_branch: { 'de-DE': 'translated' } });
    const after = collectTranslatableValues({ content: result.content, components, branchKeysOf });
    const subject = after.find((value) => value.key === 'subject.null_branch');
    if (!subject) throw new Error('no subject');
    expect(translationGap(subject, 'de-DE', 'en-US')).toBeNull();
  });

  it('returns the same content when every text is already stored and marked translated', () => {
    const original = content();
    original.subject.translation_status = { null_branch: { 'fr-FR': 'translated' } };
    const values = collectTranslatableValues({ content: original, components, branchKeysOf });
    const result = applyTranslations({
      content: original,
      values,
      defaultLocale: 'en-US',
      locales: ['en-US', 'fr-FR'],
      markUnchangedTranslated: true,
      updates: [{ key: 'subject.null_branch', locale: 'fr-FR', text: 'Bonjour' }],
    });
    expect(result).toEqual({
      content: original,
      changed: { 'fr-FR': 0 },
      unchanged: { 'fr-FR': 1 },
      problems: [],
    });
    expect(result.content).toBe(original);
  });
});
