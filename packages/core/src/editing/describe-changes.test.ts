import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCommand } from './apply-command.ts';
import {
  addLocale,
  type EditorCommand,
  insertComponent,
  moveComponent,
  removeComponent,
  removeLocale,
  renameComponent,
  setConditional,
  setFieldValue,
  setGlobalLinkTrackingParameter,
  setHiddenInLocale,
  setPreheader,
  setSubject,
  setTranslationStatus,
} from './commands.ts';
import { type ChangeLabels, describeChanges, type EmailSnapshot } from './describe-changes.ts';
import type { EditorDocument } from './document.ts';
import { heroHeadline, newId, sampleDocument, sampleIds } from './sample-document.ts';

const componentLabels: Record<number, string> = {
  1: 'Layout',
  2: 'Hero',
  3: 'Offer',
  4: 'Footer',
  9: 'Divider',
};
const fieldLabels: Record<string, string> = { headline: 'Headline', link: 'Button link', logo_url: 'Logo' };
const labels: ChangeLabels = {
  componentLabel: (componentId) => componentLabels[componentId],
  fieldLabel: (_componentId, variable) => fieldLabels[variable],
};

function snapshot(document: EditorDocument): EmailSnapshot {
  return { content: document.content, locales: document.locales };
}

function after(...commands: EditorCommand[]): EmailSnapshot {
  return snapshot(commands.reduce(applyCommand, sampleDocument()));
}

function describeAfter(...commands: EditorCommand[]) {
  return describeChanges(snapshot(sampleDocument()), after(...commands), labels);
}

describe('describeChanges', () => {
  it('says nothing when nothing changed', () => {
    expect(describeAfter()).toEqual({ phrases: [], summary: '' });
  });

  it('names the edited field of the component, and the locale when the email has several', () => {
    expect(describeAfter(setFieldValue(heroHeadline, 'Welcome')).summary).toBe(
      'Edited Hero headline in en-US',
    );
    expect(
      describeAfter(
        setFieldValue(heroHeadline, 'Welcome'),
        setFieldValue({ ...heroHeadline, locale: 'fr-FR' }, 'Bienvenue'),
      ).summary,
    ).toBe('Edited Hero headline');
  });

  it('counts the fields once more than two of one component changed', () => {
    const hero = { instanceId: sampleIds.hero, branch: 'null_branch', locale: 'en-US' };
    expect(
      describeAfter(
        setFieldValue({ ...hero, variable: 'headline' }, 'A'),
        setFieldValue({ ...hero, variable: 'link' }, 'https://example.org'),
      ).phrases,
    ).toEqual(['edited Hero headline and button link in en-US']);
    expect(
      describeAfter(
        setFieldValue({ ...hero, variable: 'headline' }, 'A'),
        setFieldValue({ ...hero, variable: 'link' }, 'https://example.org'),
        setFieldValue({ ...hero, variable: 'kicker' }, 'New'),
      ).phrases,
    ).toEqual(['edited Hero 3 fields in en-US']);
  });

  it('falls back to the liquid variable for a field the design system does not label', () => {
    const footerText = {
      instanceId: sampleIds.footer,
      branch: 'null_branch',
      locale: 'en-US',
      variable: 'text',
    };
    expect(describeAfter(setFieldValue(footerText, 'See you')).phrases).toEqual([
      'edited Footer text in en-US',
    ]);
  });

  it('names added, removed and moved components by their instance name, else their component label', () => {
    expect(
      describeAfter(
        insertComponent({ componentId: 9, index: 3, instanceId: newId }),
        moveComponent(sampleIds.hero, 3),
      ).phrases,
    ).toEqual(['added Divider', 'moved Hero']);
    expect(describeAfter(removeComponent(sampleIds.tiered)).phrases).toEqual(['removed Offer']);
  });

  it('names only the component that was dragged, not those it passed', () => {
    expect(describeAfter(moveComponent(sampleIds.footer, 0)).phrases).toEqual(['moved Footer']);
  });

  it('describes the subject, preheader, locales, link tracking, audience, hiding and renaming', () => {
    expect(
      describeAfter(
        setSubject('null_branch', 'fr-FR', 'Salut'),
        setPreheader('null_branch', 'en-US', 'Now'),
        setGlobalLinkTrackingParameter('utm_medium', 'email'),
      ).phrases,
    ).toEqual(['changed subject in fr-FR', 'changed preheader in en-US', 'changed email link tracking']);
    // The values a new locale starts with, and those a removed one takes along, are not edits.
    expect(describeAfter(addLocale('de-DE'), removeLocale('fr-FR')).phrases).toEqual([
      'added locale de-DE',
      'removed locale fr-FR',
    ]);
    expect(
      describeAfter(
        setConditional(sampleIds.hero, 7, ['gold']),
        setHiddenInLocale(sampleIds.footer, 'fr-FR', true),
        renameComponent(sampleIds.hero, 'Top banner'),
      ).phrases,
    ).toEqual([
      'edited Top banner headline and button link',
      'changed the audience of Top banner',
      'renamed Hero to Top banner',
      'changed the locales Footer shows in',
    ]);
  });

  it('leaves out a change of translation status alone: it is bookkeeping, not an edit', () => {
    expect(
      describeAfter(setTranslationStatus({ kind: 'field', ...heroHeadline, locale: 'fr-FR' }, 'translated'))
        .summary,
    ).toBe('');
  });

  it('caps the summary at four phrases and counts the rest', () => {
    const commands = [10, 11, 12, 13, 14, 15].map((n, index) =>
      insertComponent({
        componentId: 9,
        index,
        instanceId: `00000000-0000-4000-8000-0000000000${n}`,
      }),
    );
    expect(describeAfter(...commands).summary).toBe(
      'Added Divider, added Divider, added Divider, added Divider and 2 more changes',
    );
    // One more than the cap is named rather than counted as "1 more change".
    expect(describeAfter(...commands.slice(0, 5)).phrases).toHaveLength(5);
    expect(describeAfter(...commands.slice(0, 5)).summary).not.toContain('more');
  });

  it('says the email was created when there was no version before', () => {
    expect(describeChanges(null, snapshot(sampleDocument()), labels).summary).toBe('Created the email');
  });

  it('describes a component of a removed design-system component as such', () => {
    expect(
      describeChanges(snapshot(sampleDocument()), after(removeComponent(sampleIds.footer)), {
        componentLabel: () => undefined,
        fieldLabel: () => undefined,
      }).phrases,
    ).toEqual(['removed a removed component']);
  });
});

/** Generated edits of the sample document: inserts of fresh instances, moves, removals, field and subject edits. */
const commandArbitrary = (ids: string[]): fc.Arbitrary<EditorCommand> =>
  fc.oneof(
    fc
      .record({ index: fc.nat(6), id: fc.uuid({ version: 4 }), componentId: fc.constantFrom(2, 3, 4, 9) })
      .map(({ index, id, componentId }) => insertComponent({ componentId, index, instanceId: id })),
    fc.record({ id: fc.constantFrom(...ids), to: fc.nat(6) }).map(({ id, to }) => moveComponent(id, to)),
    fc.constantFrom(...ids).map((id) => removeComponent(id)),
    fc.string().map((text) => setFieldValue(heroHeadline, text)),
    fc.string().map((text) => setSubject('null_branch', 'en-US', text)),
  );

/** Applies the commands that still apply (a removed instance cannot be moved twice). */
function applyWhatApplies(document: EditorDocument, commands: EditorCommand[]): EditorDocument {
  return commands.reduce((current, command) => {
    try {
      return applyCommand(current, command);
    } catch {
      return current;
    }
  }, document);
}

describe('describeChanges properties', () => {
  const ids = [sampleIds.hero, sampleIds.tiered, sampleIds.footer];

  it('says nothing changed when a document is described against itself', () => {
    fc.assert(
      fc.property(fc.array(commandArbitrary(ids), { maxLength: 12 }), (commands) => {
        const document = snapshot(applyWhatApplies(sampleDocument(), commands));
        const copy = structuredClone(document);
        expect(describeChanges(document, copy, labels)).toEqual({ phrases: [], summary: '' });
      }),
    );
  });

  it('mentions every added instance, or counts it among the changes the summary does not name', () => {
    fc.assert(
      fc.property(fc.array(commandArbitrary(ids), { maxLength: 20 }), (commands) => {
        const before = snapshot(sampleDocument());
        const changed = snapshot(applyWhatApplies(sampleDocument(), commands));
        const described = describeChanges(before, changed, labels);
        const beforeIds = new Set(before.content.component_instances.map((instance) => instance.id));
        const added = changed.content.component_instances.filter((instance) => !beforeIds.has(instance.id));
        const addedPhrases = described.phrases.filter((phrase) => phrase.startsWith('added '));
        expect(addedPhrases).toHaveLength(added.length);
        // The summary names the first phrases in order and counts every one it leaves out.
        const counted = Number(/ and (\d+) more changes$/.exec(described.summary)?.[1] ?? 0);
        const named = described.phrases.slice(0, described.phrases.length - counted).join(', ');
        const expected = `${named.charAt(0).toUpperCase()}${named.slice(1)}${counted > 0 ? ` and ${counted} more changes` : ''}`;
        expect(described.summary).toBe(expected);
      }),
    );
  });
});
