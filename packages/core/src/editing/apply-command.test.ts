import { describe, expect, it } from 'vitest';
import { applyCommand } from './apply-command.ts';
import {
  addLocale,
  copyLocaleValues,
  duplicateComponent,
  type EditorCommand,
  insertComponent,
  moveComponent,
  removeComponent,
  removeLocale,
  renameComponent,
  setConditional,
  setDefaultLocale,
  setFieldValue,
  setGlobalLinkTrackingParameter,
  setHiddenInLocale,
  setLinkTrackingParameter,
  setPreheader,
  setPreheaderConditional,
  setSubject,
  setSubjectConditional,
  setTranslationStatus,
} from './commands.ts';
import { type EditorDocument, InvalidCommandError } from './document.ts';
import { everyCommand, heroHeadline, newId, sampleDocument, sampleIds } from './sample-document.ts';

const { container, hero, tiered, footer } = sampleIds;

function bodyIds(document: EditorDocument): string[] {
  return document.content.component_instances.map((instance) => instance.id);
}

function instance(document: EditorDocument, id: string) {
  const found = [document.content.container_component_instance, ...document.content.component_instances].find(
    (candidate) => candidate.id === id,
  );
  if (!found) throw new Error(`no instance ${id}`);
  return found;
}

function expectInvalid(command: EditorCommand, message: string | RegExp, document = sampleDocument()): void {
  const attempt = () => applyCommand(document, command);
  expect(attempt).toThrow(InvalidCommandError);
  expect(attempt).toThrow(message);
}

describe('insertComponent', () => {
  it('puts a new instance at the index with the given id, name and values', () => {
    const fieldValues = { null_branch: { 'en-US': { headline: { value: 'New' } } } };
    const next = applyCommand(
      sampleDocument(),
      insertComponent({ componentId: 9, index: 1, instanceId: newId, name: 'Promo', fieldValues }),
    );
    expect(bodyIds(next)).toEqual([hero, newId, tiered, footer]);
    expect(instance(next, newId)).toEqual({
      id: newId,
      name: 'Promo',
      component_id: 9,
      conditional_id: null,
      field_values: fieldValues,
    });
  });

  it('appends at the end and starts with no values when none are given', () => {
    const next = applyCommand(
      sampleDocument(),
      insertComponent({ componentId: 9, index: 3, instanceId: newId }),
    );
    expect(bodyIds(next)).toEqual([hero, tiered, footer, newId]);
    expect(instance(next, newId).field_values).toEqual({});
    expect(instance(next, newId)).not.toHaveProperty('name');
  });

  it('makes up a UUID when the caller gives none', () => {
    const command = insertComponent({ componentId: 9, index: 0 });
    expect(command.instanceId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(insertComponent({ componentId: 9, index: 0 }).instanceId).not.toBe(command.instanceId);
    expect(bodyIds(applyCommand(sampleDocument(), command))[0]).toBe(command.instanceId);
  });

  it('refuses an index outside the body, a taken id, a bad component id and values it cannot hold', () => {
    expectInvalid(
      insertComponent({ componentId: 9, index: 4, instanceId: newId }),
      'Index 4 is outside 0 to 3',
    );
    expectInvalid(insertComponent({ componentId: 9, index: -1, instanceId: newId }), 'outside');
    expectInvalid(insertComponent({ componentId: 9, index: 1.5, instanceId: newId }), 'outside');
    expectInvalid(insertComponent({ componentId: 9, index: 0, instanceId: hero }), 'already used');
    expectInvalid(insertComponent({ componentId: 9, index: 0, instanceId: container }), 'already used');
    expectInvalid(insertComponent({ componentId: 9, index: 0, instanceId: ' ' }), 'needs an id');
    expectInvalid(insertComponent({ componentId: 0, index: 0, instanceId: newId }), 'not a component id');
    expectInvalid(
      insertComponent({
        componentId: 9,
        index: 0,
        instanceId: newId,
        fieldValues: { gold: { 'en-US': {} } },
      }),
      'only has the branch null_branch',
    );
    expectInvalid(
      insertComponent({
        componentId: 9,
        index: 0,
        instanceId: newId,
        fieldValues: { null_branch: { 'de-DE': {} } },
      }),
      'no locale de-DE',
    );
  });
});

describe('moveComponent', () => {
  it('moves an instance to its new index, forwards and backwards', () => {
    expect(bodyIds(applyCommand(sampleDocument(), moveComponent(hero, 2)))).toEqual([tiered, footer, hero]);
    expect(bodyIds(applyCommand(sampleDocument(), moveComponent(footer, 0)))).toEqual([footer, hero, tiered]);
    expect(bodyIds(applyCommand(sampleDocument(), moveComponent(tiered, 0)))).toEqual([tiered, hero, footer]);
  });

  it('keeps the moved instance itself, and returns the document unchanged when it stays put', () => {
    const document = sampleDocument();
    expect(applyCommand(document, moveComponent(hero, 2)).content.component_instances[2]).toBe(
      document.content.component_instances[0],
    );
    expect(applyCommand(document, moveComponent(tiered, 1))).toBe(document);
  });

  it('refuses an unknown instance, the container and an index past the end', () => {
    expectInvalid(moveComponent('nope', 0), 'No component instance has the id nope');
    expectInvalid(moveComponent(container, 0), 'The container cannot be moved');
    expectInvalid(moveComponent(hero, 3), 'Index 3 is outside 0 to 2');
  });
});

describe('removeComponent', () => {
  it('removes the instance and only it', () => {
    const document = sampleDocument();
    const next = applyCommand(document, removeComponent(tiered));
    expect(bodyIds(next)).toEqual([hero, footer]);
    expect(next.content.component_instances[0]).toBe(document.content.component_instances[0]);
  });

  it('refuses an unknown instance and the container', () => {
    expectInvalid(removeComponent('nope'), 'No component instance');
    expectInvalid(removeComponent(container), 'The container cannot be removed');
  });
});

describe('duplicateComponent', () => {
  it('places a copy with the new id right after the original, values, conditional and name included', () => {
    const document = sampleDocument();
    const next = applyCommand(document, duplicateComponent(tiered, newId));
    expect(bodyIds(next)).toEqual([hero, tiered, newId, footer]);
    const { id, ...copied } = instance(next, newId);
    const { id: _originalId, ...original } = instance(document, tiered);
    expect(id).toBe(newId);
    expect(copied).toEqual(original);
  });

  it('makes up an id when none is given', () => {
    const command = duplicateComponent(hero);
    expect(command.newInstanceId).not.toBe(hero);
    expect(bodyIds(applyCommand(sampleDocument(), command))).toEqual([
      hero,
      command.newInstanceId,
      tiered,
      footer,
    ]);
  });

  it('refuses an unknown instance, the container and a taken id', () => {
    expectInvalid(duplicateComponent('nope', newId), 'No component instance');
    expectInvalid(duplicateComponent(container, newId), 'The container cannot be duplicated');
    expectInvalid(duplicateComponent(hero, footer), 'already used');
  });
});

describe('renameComponent', () => {
  it('names an instance, the container too', () => {
    expect(instance(applyCommand(sampleDocument(), renameComponent(tiered, 'Tiers')), tiered).name).toBe(
      'Tiers',
    );
    expect(
      instance(applyCommand(sampleDocument(), renameComponent(container, 'Frame')), container).name,
    ).toBe('Frame');
  });

  it('removes the name when it is blank, and changes nothing when the name is the same', () => {
    const document = sampleDocument();
    expect(instance(applyCommand(document, renameComponent(hero, '  ')), hero)).not.toHaveProperty('name');
    expect(applyCommand(document, renameComponent(hero, 'Hero'))).toBe(document);
    expect(applyCommand(document, renameComponent(footer, ''))).toBe(document);
  });

  it('refuses an unknown instance', () => {
    expectInvalid(renameComponent('nope', 'x'), 'No component instance has the id nope');
  });
});

describe('setFieldValue', () => {
  it('replaces a stored value and shares everything else', () => {
    const document = sampleDocument();
    const next = applyCommand(document, setFieldValue(heroHeadline, 'Welcome'));
    const values = instance(next, hero).field_values.null_branch;
    expect(values?.['en-US']?.headline).toEqual({ value: 'Welcome' });
    expect(values?.['en-US']?.link).toBe(instance(document, hero).field_values.null_branch?.['en-US']?.link);
    expect(values?.['fr-FR']).toBe(instance(document, hero).field_values.null_branch?.['fr-FR']);
    expect(next.content.component_instances[1]).toBe(document.content.component_instances[1]);
    expect(next.content.subject).toBe(document.content.subject);
  });

  it('keeps the link tracking parameters of the value it replaces', () => {
    const next = applyCommand(
      sampleDocument(),
      setFieldValue({ ...heroHeadline, variable: 'link' }, 'https://x.org'),
    );
    expect(instance(next, hero).field_values.null_branch?.['en-US']?.link).toEqual({
      value: 'https://x.org',
      link_tracking_parameters: { utm_source: 'email' },
    });
  });

  it('creates the branch, locale and variable levels a first value needs', () => {
    const next = applyCommand(
      sampleDocument(),
      setFieldValue({ instanceId: tiered, branch: 'silver', locale: 'fr-FR', variable: 'badge' }, true),
    );
    expect(instance(next, tiered).field_values.silver).toEqual({
      'en-US': { headline: { value: 'Silver' } },
      'fr-FR': { badge: { value: true } },
    });
    const fresh = applyCommand(
      applyCommand(sampleDocument(), insertComponent({ componentId: 9, index: 0, instanceId: newId })),
      setFieldValue({ instanceId: newId, branch: 'null_branch', locale: 'en-US', variable: 'count' }, 3),
    );
    expect(instance(fresh, newId).field_values).toEqual({
      null_branch: { 'en-US': { count: { value: 3 } } },
    });
  });

  it('edits the container by its own id (global fields)', () => {
    const next = applyCommand(
      sampleDocument(),
      setFieldValue(
        { instanceId: container, branch: 'null_branch', locale: 'en-US', variable: 'logo_url' },
        null,
      ),
    );
    expect(next.content.container_component_instance.field_values.null_branch?.['en-US']?.logo_url).toEqual({
      value: null,
    });
  });

  it('returns the document unchanged when the value is the same', () => {
    const document = sampleDocument();
    expect(applyCommand(document, setFieldValue(heroHeadline, 'Hi'))).toBe(document);
  });

  it('refuses an unknown instance, an unknown locale, a blank variable and a branch the instance does not use', () => {
    expectInvalid(setFieldValue({ ...heroHeadline, instanceId: 'nope' }, 'x'), 'No component instance');
    expectInvalid(setFieldValue({ ...heroHeadline, locale: 'de-DE' }, 'x'), 'The email has no locale de-DE');
    expectInvalid(setFieldValue({ ...heroHeadline, variable: '' }, 'x'), 'needs a liquid variable');
    expectInvalid(setFieldValue({ ...heroHeadline, branch: 'gold' }, 'x'), 'only has the branch null_branch');
    expectInvalid(
      setFieldValue({ ...heroHeadline, instanceId: tiered }, 'x'),
      'conditional 7 has no null_branch',
    );
  });
});

describe('setLinkTrackingParameter', () => {
  const heroLink = { ...heroHeadline, variable: 'link' };

  it('adds and replaces a parameter on one field value, keeping its value', () => {
    const added = applyCommand(
      sampleDocument(),
      setLinkTrackingParameter(heroLink, 'utm_medium', 'newsletter'),
    );
    expect(instance(added, hero).field_values.null_branch?.['en-US']?.link).toEqual({
      value: 'https://example.com',
      link_tracking_parameters: { utm_source: 'email', utm_medium: 'newsletter' },
    });
    const replaced = applyCommand(sampleDocument(), setLinkTrackingParameter(heroLink, 'utm_source', 'crm'));
    expect(
      instance(replaced, hero).field_values.null_branch?.['en-US']?.link?.link_tracking_parameters,
    ).toEqual({
      utm_source: 'crm',
    });
  });

  it('removes a parameter with null, and the whole map with its last parameter', () => {
    const next = applyCommand(sampleDocument(), setLinkTrackingParameter(heroLink, 'utm_source', null));
    expect(instance(next, hero).field_values.null_branch?.['en-US']?.link).toEqual({
      value: 'https://example.com',
    });
  });

  it('returns the document unchanged when nothing changes', () => {
    const document = sampleDocument();
    expect(applyCommand(document, setLinkTrackingParameter(heroLink, 'utm_source', 'email'))).toBe(document);
    expect(applyCommand(document, setLinkTrackingParameter(heroLink, 'missing', null))).toBe(document);
  });

  it('refuses a field with no stored value, a blank parameter and an unknown instance', () => {
    expectInvalid(setLinkTrackingParameter({ ...heroLink, locale: 'fr-FR' }, 'a', 'b'), 'no stored value');
    expectInvalid(setLinkTrackingParameter(heroLink, ' ', 'b'), 'needs a name');
    expectInvalid(
      setLinkTrackingParameter({ ...heroLink, instanceId: 'nope' }, 'a', 'b'),
      'No component instance',
    );
  });
});

describe('setConditional', () => {
  it('attaching copies the null_branch values into every branch', () => {
    const document = sampleDocument();
    const next = applyCommand(document, setConditional(hero, 7, ['gold', 'silver', 'else']));
    const before = instance(document, hero).field_values.null_branch;
    expect(instance(next, hero).conditional_id).toBe(7);
    expect(instance(next, hero).field_values).toEqual({ gold: before, silver: before, else: before });
  });

  it('detaching keeps the first branch values under null_branch', () => {
    const next = applyCommand(sampleDocument(), setConditional(tiered, null));
    expect(instance(next, tiered).conditional_id).toBeNull();
    expect(instance(next, tiered).field_values).toEqual({
      null_branch: { 'en-US': { headline: { value: 'Gold' } }, 'fr-FR': { headline: { value: 'Or' } } },
    });
  });

  it('detaching follows the branch order it is given', () => {
    const next = applyCommand(sampleDocument(), setConditional(tiered, null, ['silver', 'gold']));
    expect(instance(next, tiered).field_values).toEqual({
      null_branch: { 'en-US': { headline: { value: 'Silver' } } },
    });
  });

  it('swapping keeps branches with the same key and starts new ones from the first branch', () => {
    const next = applyCommand(sampleDocument(), setConditional(tiered, 8, ['silver', 'bronze']));
    expect(instance(next, tiered).conditional_id).toBe(8);
    expect(instance(next, tiered).field_values).toEqual({
      silver: { 'en-US': { headline: { value: 'Silver' } } },
      bronze: { 'en-US': { headline: { value: 'Gold' } }, 'fr-FR': { headline: { value: 'Or' } } },
    });
  });

  it('leaves other properties of the instance alone', () => {
    const next = applyCommand(sampleDocument(), setConditional(tiered, null));
    expect(instance(next, tiered).hidden_from_locales).toEqual({ 'fr-FR': true });
    expect(instance(next, tiered).component_id).toBe(3);
  });

  it('returns the document unchanged when nothing changes', () => {
    const document = sampleDocument();
    expect(applyCommand(document, setConditional(hero, null))).toBe(document);
    expect(applyCommand(document, setConditional(tiered, 7, ['silver', 'gold']))).toBe(document);
  });

  it('refuses an unknown instance and bad branch keys', () => {
    expectInvalid(setConditional('nope', 7, ['a']), 'No component instance');
    expectInvalid(setConditional(hero, 7, []), 'at least one branch key');
    expectInvalid(setConditional(hero, 7, ['a', 'a']), 'unique');
    expectInvalid(setConditional(hero, 7, ['null_branch']), 'not a branch key');
  });
});

describe('setSubject and setPreheader', () => {
  it('set the text of one branch and locale, leaving the other locales alone', () => {
    const document = sampleDocument();
    const subject = applyCommand(document, setSubject('null_branch', 'en-US', 'Sale'));
    expect(subject.content.subject.branch_content).toEqual({
      null_branch: { 'en-US': 'Sale', 'fr-FR': 'Bonjour' },
    });
    expect(subject.content.preheader).toBe(document.content.preheader);
    const preheader = applyCommand(document, setPreheader('null_branch', 'fr-FR', 'Lisez'));
    expect(preheader.content.preheader.branch_content).toEqual({
      null_branch: { 'en-US': 'Read on', 'fr-FR': 'Lisez' },
    });
    expect(preheader.content.subject).toBe(document.content.subject);
  });

  it('return the document unchanged when the text is the same', () => {
    const document = sampleDocument();
    expect(applyCommand(document, setSubject('null_branch', 'en-US', 'Hello'))).toBe(document);
    expect(applyCommand(document, setPreheader('null_branch', 'en-US', 'Read on'))).toBe(document);
  });

  it('refuse an unknown locale and a branch the text does not use', () => {
    expectInvalid(setSubject('null_branch', 'de-DE', 'x'), 'no locale de-DE');
    expectInvalid(setPreheader('gold', 'en-US', 'x'), 'only has the branch null_branch');
    const branched = applyCommand(sampleDocument(), setSubjectConditional(7, ['gold', 'silver']));
    expectInvalid(setSubject('null_branch', 'en-US', 'x'), 'has no null_branch', branched);
  });
});

describe('setSubjectConditional and setPreheaderConditional', () => {
  it('attach by copying the text into every branch, and detach by keeping the first branch', () => {
    const attached = applyCommand(sampleDocument(), setSubjectConditional(7, ['gold', 'silver']));
    const text = { 'en-US': 'Hello', 'fr-FR': 'Bonjour' };
    expect(attached.content.subject).toEqual({
      conditional_id: 7,
      branch_content: { gold: text, silver: text },
    });
    const edited = applyCommand(attached, setSubject('silver', 'en-US', 'Hi silver'));
    const detached = applyCommand(edited, setSubjectConditional(null, ['silver', 'gold']));
    expect(detached.content.subject).toEqual({
      conditional_id: null,
      branch_content: { null_branch: { 'en-US': 'Hi silver', 'fr-FR': 'Bonjour' } },
    });
  });

  it('work on the preheader alone', () => {
    const document = sampleDocument();
    const next = applyCommand(document, setPreheaderConditional(7, ['gold']));
    expect(next.content.preheader).toEqual({
      conditional_id: 7,
      branch_content: { gold: { 'en-US': 'Read on' } },
    });
    expect(next.content.subject).toBe(document.content.subject);
  });

  it('refuse bad branch keys and change nothing when nothing changes', () => {
    expectInvalid(setPreheaderConditional(7, []), 'at least one branch key');
    const document = sampleDocument();
    expect(applyCommand(document, setSubjectConditional(null))).toBe(document);
  });
});

describe('addLocale', () => {
  it('adds the locale at the end, starting from a copy of the default locale’s values', () => {
    const document = sampleDocument();
    const next = applyCommand(document, addLocale('de-DE'));
    expect(next.locales).toEqual(['en-US', 'fr-FR', 'de-DE']);
    expect(instance(next, hero).field_values.null_branch?.['de-DE']).toEqual({
      headline: { value: 'Hi', translation_status: 'copied' },
      link: {
        value: 'https://example.com',
        link_tracking_parameters: { utm_source: 'email' },
        translation_status: 'copied',
      },
    });
    expect(instance(next, tiered).field_values.silver?.['de-DE']).toEqual({
      headline: { value: 'Silver', translation_status: 'copied' },
    });
    expect(next.content.subject.branch_content.null_branch?.['de-DE']).toBe('Hello');
    expect(next.content.subject.translation_status).toEqual({ null_branch: { 'de-DE': 'copied' } });
    // Visibility is the new locale's own choice: nothing hidden in another locale is hidden in it.
    expect(instance(next, tiered).hidden_from_locales).toEqual({ 'fr-FR': true });
  });

  it('copies from the locale it names', () => {
    const next = applyCommand(sampleDocument(), addLocale('fr-CA', 'fr-FR'));
    expect(instance(next, hero).field_values.null_branch?.['fr-CA']).toEqual({
      headline: { value: 'Salut', translation_status: 'copied' },
    });
    expect(next.content.subject.branch_content.null_branch?.['fr-CA']).toBe('Bonjour');
    // French has no preheader: the new locale has none either.
    expect(next.content.preheader.branch_content.null_branch?.['fr-CA']).toBeUndefined();
  });

  it('refuses a locale the email has, a blank code and a source it does not have', () => {
    expectInvalid(addLocale('fr-FR'), 'already has the locale fr-FR');
    expectInvalid(addLocale(''), 'needs a code');
    expectInvalid(addLocale('de-DE', 'it-IT'), 'no locale it-IT');
  });
});

describe('removeLocale', () => {
  it('drops the locale from the list and its values everywhere', () => {
    const next = applyCommand(sampleDocument(), removeLocale('fr-FR'));
    expect(next.locales).toEqual(['en-US']);
    expect(next.content.subject.branch_content).toEqual({ null_branch: { 'en-US': 'Hello' } });
    expect(instance(next, hero).field_values.null_branch).not.toHaveProperty('fr-FR');
    expect(instance(next, tiered).field_values.gold).toEqual({ 'en-US': { headline: { value: 'Gold' } } });
    expect(instance(next, tiered)).not.toHaveProperty('hidden_from_locales');
    expect(JSON.stringify(next.content)).not.toContain('fr-FR');
  });

  it('shares instances that had nothing in that locale', () => {
    const document = sampleDocument();
    const next = applyCommand(document, removeLocale('fr-FR'));
    expect(next.content.component_instances[2]).toBe(document.content.component_instances[2]);
    expect(next.content.container_component_instance).toBe(document.content.container_component_instance);
  });

  it('refuses the default locale and a locale the email does not have', () => {
    expectInvalid(removeLocale('en-US'), 'default locale');
    expectInvalid(removeLocale('de-DE'), 'no locale de-DE');
  });
});

describe('setDefaultLocale', () => {
  it('changes the default among the existing locales', () => {
    expect(applyCommand(sampleDocument(), setDefaultLocale('fr-FR')).defaultLocale).toBe('fr-FR');
    const document = sampleDocument();
    expect(applyCommand(document, setDefaultLocale('en-US'))).toBe(document);
  });

  it('refuses a locale the email does not have', () => {
    expectInvalid(setDefaultLocale('de-DE'), 'no locale de-DE');
  });
});

describe('copyLocaleValues', () => {
  const copied = (value: string) => ({ value, translation_status: 'copied' });

  it('copies the default locale values of one instance into another locale, marked copied', () => {
    const document = sampleDocument();
    const next = applyCommand(document, copyLocaleValues('fr-FR', hero));
    const values = instance(next, hero).field_values.null_branch;
    expect(values?.['fr-FR']).toEqual({
      headline: copied('Hi'),
      link: { ...copied('https://example.com'), link_tracking_parameters: { utm_source: 'email' } },
    });
    expect(values?.['en-US']).toBe(instance(document, hero).field_values.null_branch?.['en-US']);
    expect(instance(next, footer)).toBe(instance(document, footer));
    expect(next.content.subject).toBe(document.content.subject);
  });

  it('copies every branch of every instance, and the subject and preheader, when no instance is named', () => {
    const next = applyCommand(sampleDocument(), copyLocaleValues('fr-FR'));
    expect(instance(next, tiered).field_values).toEqual({
      gold: { 'en-US': { headline: { value: 'Gold' } }, 'fr-FR': { headline: copied('Gold') } },
      silver: { 'en-US': { headline: { value: 'Silver' } }, 'fr-FR': { headline: copied('Silver') } },
    });
    expect(instance(next, container).field_values.null_branch?.['fr-FR']).toEqual({
      logo_url: copied('https://example.com/logo.png'),
    });
    expect(next.content.subject.branch_content.null_branch).toEqual({ 'en-US': 'Hello', 'fr-FR': 'Hello' });
    expect(next.content.subject.translation_status).toEqual({ null_branch: { 'fr-FR': 'copied' } });
    expect(next.content.preheader.branch_content.null_branch).toEqual({
      'en-US': 'Read on',
      'fr-FR': 'Read on',
    });
  });

  it('copies from another locale than the default when named', () => {
    const withGerman = applyCommand(sampleDocument(), addLocale('de-DE'));
    const next = applyCommand(withGerman, copyLocaleValues('de-DE', null, 'fr-FR'));
    expect(instance(next, hero).field_values.null_branch?.['de-DE']).toEqual({ headline: copied('Salut') });
    expect(next.content.subject.branch_content.null_branch?.['de-DE']).toBe('Bonjour');
    // French has no silver headline: German keeps the one it had.
    expect(instance(next, tiered).field_values.silver?.['de-DE']).toEqual({ headline: copied('Silver') });
  });

  it('leaves a branch alone where the default locale has nothing', () => {
    const frenchFirst = applyCommand(sampleDocument(), setDefaultLocale('fr-FR'));
    const next = applyCommand(frenchFirst, copyLocaleValues('en-US'));
    expect(instance(next, tiered).field_values).toEqual({
      gold: { 'en-US': { headline: copied('Or') }, 'fr-FR': { headline: { value: 'Or' } } },
      silver: { 'en-US': { headline: { value: 'Silver' } } },
    });
    expect(next.content.preheader).toBe(frenchFirst.content.preheader);
    expect(instance(next, footer)).toBe(instance(frenchFirst, footer));
  });

  it('marks a copied value edited once someone changes it, and a value without a status stays without', () => {
    const copiedDocument = applyCommand(sampleDocument(), copyLocaleValues('fr-FR'));
    const frenchHeadline = { ...heroHeadline, locale: 'fr-FR' };
    const next = applyCommand(copiedDocument, setFieldValue(frenchHeadline, 'Bonjour'));
    expect(instance(next, hero).field_values.null_branch?.['fr-FR']?.headline).toEqual({
      value: 'Bonjour',
      translation_status: 'edited',
    });
    const subject = applyCommand(copiedDocument, setSubject('null_branch', 'fr-FR', 'Salut'));
    expect(subject.content.subject.translation_status).toEqual({ null_branch: { 'fr-FR': 'edited' } });
    // The sample's own French headline has no status: editing it leaves none.
    const plain = applyCommand(sampleDocument(), setFieldValue(frenchHeadline, 'Coucou'));
    expect(instance(plain, hero).field_values.null_branch?.['fr-FR']?.headline).toEqual({ value: 'Coucou' });
  });

  it('returns the document unchanged when the locale already matches', () => {
    const copied = applyCommand(sampleDocument(), copyLocaleValues('fr-FR'));
    expect(applyCommand(copied, copyLocaleValues('fr-FR'))).toBe(copied);
  });

  it('refuses the default locale, an unknown locale, an unknown instance and copying a locale onto itself', () => {
    expectInvalid(copyLocaleValues('en-US'), 'copy into another locale');
    expectInvalid(copyLocaleValues('de-DE'), 'no locale de-DE');
    expectInvalid(copyLocaleValues('fr-FR', 'nope'), 'No component instance');
    expectInvalid(copyLocaleValues('fr-FR', null, 'de-DE'), 'no locale de-DE');
    expectInvalid(copyLocaleValues('fr-FR', null, 'fr-FR'), 'from another locale');
  });
});

describe('setTranslationStatus', () => {
  const frenchHeadline = { kind: 'field' as const, ...heroHeadline, locale: 'fr-FR' };

  it('marks a stored value and removes the mark with null', () => {
    const marked = applyCommand(sampleDocument(), setTranslationStatus(frenchHeadline, 'translated'));
    expect(instance(marked, hero).field_values.null_branch?.['fr-FR']?.headline).toEqual({
      value: 'Salut',
      translation_status: 'translated',
    });
    expect(applyCommand(marked, setTranslationStatus(frenchHeadline, 'translated'))).toBe(marked);
    const unmarked = applyCommand(marked, setTranslationStatus(frenchHeadline, null));
    expect(instance(unmarked, hero).field_values.null_branch?.['fr-FR']?.headline).toEqual({
      value: 'Salut',
    });
  });

  it('marks the subject and preheader per branch and locale', () => {
    const target = { kind: 'subject' as const, branch: 'null_branch', locale: 'fr-FR' };
    const marked = applyCommand(sampleDocument(), setTranslationStatus(target, 'edited'));
    expect(marked.content.subject.translation_status).toEqual({ null_branch: { 'fr-FR': 'edited' } });
    const unmarked = applyCommand(marked, setTranslationStatus(target, null));
    expect(unmarked.content.subject).not.toHaveProperty('translation_status');
  });

  it('refuses a value that is not stored', () => {
    expectInvalid(
      setTranslationStatus({ ...frenchHeadline, variable: 'link' }, 'translated'),
      'no stored value to mark',
    );
    expectInvalid(
      setTranslationStatus({ kind: 'preheader', branch: 'null_branch', locale: 'fr-FR' }, 'translated'),
      'no text in fr-FR',
    );
  });
});

describe('setHiddenInLocale', () => {
  it('hides an instance in a locale and shows it again', () => {
    const hidden = applyCommand(sampleDocument(), setHiddenInLocale(hero, 'fr-FR', true));
    expect(instance(hidden, hero).hidden_from_locales).toEqual({ 'fr-FR': true });
    const shown = applyCommand(hidden, setHiddenInLocale(hero, 'fr-FR', false));
    expect(instance(shown, hero)).not.toHaveProperty('hidden_from_locales');
    const tieredShown = applyCommand(sampleDocument(), setHiddenInLocale(tiered, 'fr-FR', false));
    expect(instance(tieredShown, tiered)).not.toHaveProperty('hidden_from_locales');
  });

  it('returns the document unchanged when the instance already is that way', () => {
    const document = sampleDocument();
    expect(applyCommand(document, setHiddenInLocale(tiered, 'fr-FR', true))).toBe(document);
    expect(applyCommand(document, setHiddenInLocale(hero, 'fr-FR', false))).toBe(document);
  });

  it('refuses the container, an unknown instance and an unknown locale', () => {
    expectInvalid(setHiddenInLocale(container, 'fr-FR', true), 'The container cannot be hidden');
    expectInvalid(setHiddenInLocale('nope', 'fr-FR', true), 'No component instance');
    expectInvalid(setHiddenInLocale(hero, 'de-DE', true), 'no locale de-DE');
  });
});

describe('setGlobalLinkTrackingParameter', () => {
  it('adds, replaces and removes email-wide parameters', () => {
    const added = applyCommand(sampleDocument(), setGlobalLinkTrackingParameter('utm_medium', 'email'));
    expect(added.content.global_link_tracking_parameters).toEqual({
      utm_campaign: 'spring',
      utm_medium: 'email',
    });
    const replaced = applyCommand(added, setGlobalLinkTrackingParameter('utm_campaign', 'summer'));
    expect(replaced.content.global_link_tracking_parameters).toEqual({
      utm_campaign: 'summer',
      utm_medium: 'email',
    });
    const removed = applyCommand(replaced, setGlobalLinkTrackingParameter('utm_campaign', null));
    expect(removed.content.global_link_tracking_parameters).toEqual({ utm_medium: 'email' });
  });

  it('returns the document unchanged when nothing changes, and refuses a blank name', () => {
    const document = sampleDocument();
    expect(applyCommand(document, setGlobalLinkTrackingParameter('utm_campaign', 'spring'))).toBe(document);
    expect(applyCommand(document, setGlobalLinkTrackingParameter('absent', null))).toBe(document);
    expectInvalid(setGlobalLinkTrackingParameter('', 'x'), 'needs a name');
  });
});

describe('applyCommand in general', () => {
  it('refuses a command type it does not know', () => {
    expectInvalid({ type: 'explode' } as unknown as EditorCommand, 'Unknown command type explode');
  });

  it('never modifies its input, whatever the command', () => {
    // sampleDocument() is frozen at every depth, so a mutation would throw; the snapshot also
    // proves nothing changed through a path freezing cannot see.
    const document = sampleDocument();
    const snapshot = structuredClone(document);
    for (const command of everyCommand()) applyCommand(document, command);
    expect(document).toEqual(snapshot);
  });
});
