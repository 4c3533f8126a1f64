import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCommand } from './apply-command.ts';
import {
  addLocale,
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
  setSubject,
  setSubjectConditional,
} from './commands.ts';
import { type EditorDocument, InvalidCommandError, sameDocument } from './document.ts';
import { type MergeResult, mergeDocuments } from './merge-documents.ts';
import { heroHeadline, newId, sampleDocument, sampleIds } from './sample-document.ts';

function apply(document: EditorDocument, ...commands: EditorCommand[]): EditorDocument {
  return commands.reduce(applyCommand, document);
}

function merged(result: MergeResult): EditorDocument {
  if ('conflict' in result) throw new Error(`Expected a merge, got conflicts: ${result.conflict.join('; ')}`);
  return result.merged;
}

function conflicts(result: MergeResult): string[] {
  if ('merged' in result) throw new Error('Expected a conflict, got a merge');
  return result.conflict;
}

/** Merges both ways round, checks both agree, and returns the merged document. */
function mergeBothWays(base: EditorDocument, mine: EditorDocument, theirs: EditorDocument): EditorDocument {
  const result = merged(mergeDocuments(base, mine, theirs));
  expect(sameDocument(merged(mergeDocuments(base, theirs, mine)), result)).toBe(true);
  return result;
}

const heroIn = (locale: string, variable = 'headline') => ({ ...heroHeadline, locale, variable });
const footerText = {
  instanceId: sampleIds.footer,
  branch: 'null_branch',
  locale: 'en-US',
  variable: 'text',
};

describe('mergeDocuments', () => {
  it('takes the only side that changed anything, and either side when both made the same change', () => {
    const base = sampleDocument();
    const changed = apply(base, setFieldValue(heroHeadline, 'Welcome'));
    expect(merged(mergeDocuments(base, changed, base))).toBe(changed);
    expect(merged(mergeDocuments(base, base, changed))).toBe(changed);
    expect(sameDocument(merged(mergeDocuments(base, changed, structuredClone(changed))), changed)).toBe(true);
  });

  it('keeps an AI translation saved meanwhile and the user’s English headline', () => {
    const base = sampleDocument();
    const mine = apply(base, setFieldValue(heroHeadline, 'Welcome'));
    const theirs = apply(
      base,
      addLocale('de-DE'),
      setSubject('null_branch', 'de-DE', 'Hallo'),
      setFieldValue(heroIn('de-DE'), 'Willkommen'),
      setFieldValue(heroIn('fr-FR'), 'Bienvenue'),
    );
    const result = mergeBothWays(base, mine, theirs);
    expect(sameDocument(result, apply(theirs, setFieldValue(heroHeadline, 'Welcome')))).toBe(true);
    expect(result.locales).toEqual(['en-US', 'fr-FR', 'de-DE']);
  });

  it('merges leaf by leaf: other variables, locales, branches, link tracking parameters, names and hidden flags', () => {
    const base = sampleDocument();
    const link = heroIn('en-US', 'link');
    const mineCommands = [
      setFieldValue(heroHeadline, 'Welcome'),
      setLinkTrackingParameter(link, 'utm_medium', 'email'),
      setHiddenInLocale(sampleIds.hero, 'fr-FR', true),
      setGlobalLinkTrackingParameter('utm_campaign', null),
      setPreheader('null_branch', 'en-US', 'Now'),
    ];
    const theirsCommands = [
      setFieldValue(heroIn('fr-FR'), 'Bienvenue'),
      setFieldValue(link, 'https://example.org'),
      setLinkTrackingParameter(link, 'utm_source', 'newsletter'),
      setHiddenInLocale(sampleIds.tiered, 'fr-FR', false),
      renameComponent(sampleIds.hero, 'Top'),
      setGlobalLinkTrackingParameter('utm_content', 'x'),
      setFieldValue(
        { instanceId: sampleIds.tiered, branch: 'silver', locale: 'fr-FR', variable: 'headline' },
        'Argent',
      ),
    ];
    const result = mergeBothWays(base, apply(base, ...mineCommands), apply(base, ...theirsCommands));
    expect(sameDocument(result, apply(base, ...mineCommands, ...theirsCommands))).toBe(true);
  });

  it('reports the same value changed differently on both sides', () => {
    const base = sampleDocument();
    const result = mergeDocuments(
      base,
      apply(base, setFieldValue(heroHeadline, 'Mine'), setSubject('null_branch', 'fr-FR', 'Salut')),
      apply(base, setFieldValue(heroHeadline, 'Theirs'), setSubject('null_branch', 'fr-FR', 'Coucou')),
    );
    expect(conflicts(result)).toEqual([
      'content.subject.branch_content.null_branch.fr-FR',
      `content.component_instances.${sampleIds.hero}.field_values.null_branch.en-US.headline.value`,
    ]);
  });

  it('reports a link tracking parameter changed differently on both sides', () => {
    const base = sampleDocument();
    const link = heroIn('en-US', 'link');
    expect(
      conflicts(
        mergeDocuments(
          base,
          apply(base, setLinkTrackingParameter(link, 'utm_source', 'a')),
          apply(base, setLinkTrackingParameter(link, 'utm_source', null)),
        ),
      ),
    ).toEqual([
      `content.component_instances.${sampleIds.hero}.field_values.null_branch.en-US.link.link_tracking_parameters.utm_source`,
    ]);
  });

  it('merges a hidden flag dropped on one side with a rename on the other', () => {
    const base = sampleDocument();
    const unhidden = apply(base, setHiddenInLocale(sampleIds.tiered, 'fr-FR', false));
    const renamed = apply(base, renameComponent(sampleIds.tiered, 'Tiers'));
    const result = mergeBothWays(base, unhidden, renamed);
    expect(result.content.component_instances[1]).not.toHaveProperty('hidden_from_locales');
    expect(result.content.component_instances[1]?.name).toBe('Tiers');
  });

  describe('locales', () => {
    it('keeps both sides’ additions and removals', () => {
      const base = sampleDocument();
      const result = mergeBothWays(
        base,
        apply(base, addLocale('it-IT'), removeLocale('fr-FR')),
        apply(base, addLocale('de-DE'), setFieldValue(heroIn('de-DE'), 'Hallo')),
      );
      expect(result.locales).toEqual(['en-US', 'de-DE', 'it-IT']);
      // German started as a copy of English; the headline was then edited.
      expect(result.content.component_instances[0]?.field_values.null_branch?.['de-DE']).toEqual({
        headline: { value: 'Hallo', translation_status: 'edited' },
        link: {
          value: 'https://example.com',
          link_tracking_parameters: { utm_source: 'email' },
          translation_status: 'copied',
        },
      });
      expect(result.content.component_instances[0]?.field_values.null_branch?.['fr-FR']).toBeUndefined();
    });

    it('reports a locale removed on one side that the other side wrote into', () => {
      const base = sampleDocument();
      const removed = apply(base, removeLocale('fr-FR'));
      // A new value in French, where the removal left no French record behind to clash with.
      const translated = apply(
        base,
        setFieldValue(footerText, 'Bye'),
        setFieldValue({ ...footerText, locale: 'fr-FR' }, 'Salut'),
      );
      expect(conflicts(mergeDocuments(base, removed, translated))).toContain(
        'locales.fr-FR: removed on one side, written into on the other',
      );
      expect(conflicts(mergeDocuments(base, translated, removed))).toContain(
        'locales.fr-FR: removed on one side, written into on the other',
      );
      // A changed French value also clashes with the removed record itself.
      const changed = apply(base, setFieldValue(heroIn('fr-FR'), 'Bienvenue'));
      expect(conflicts(mergeDocuments(base, removed, changed)).length).toBeGreaterThan(0);
    });

    it('lets one side remove a locale the other side did not write into', () => {
      const base = sampleDocument();
      const removed = apply(base, removeLocale('fr-FR'));
      const edited = apply(base, setFieldValue(heroHeadline, 'Welcome'));
      expect(
        sameDocument(
          mergeBothWays(base, removed, edited),
          apply(removed, setFieldValue(heroHeadline, 'Welcome')),
        ),
      ).toBe(true);
    });

    it('reports a default locale changed differently, or to a locale the other side removed', () => {
      const base = apply(sampleDocument(), addLocale('de-DE'));
      expect(
        conflicts(
          mergeDocuments(
            base,
            apply(base, setDefaultLocale('fr-FR')),
            apply(base, setDefaultLocale('de-DE')),
          ),
        ),
      ).toEqual(['defaultLocale']);
      expect(
        conflicts(
          mergeDocuments(base, apply(base, setDefaultLocale('de-DE')), apply(base, removeLocale('de-DE'))),
        ),
      ).toEqual(['defaultLocale: de-DE is no longer one of the locales']);
    });
  });

  describe('structure', () => {
    it('takes one side’s structure with the other side’s values', () => {
      const base = sampleDocument();
      const structure = [
        insertComponent({ componentId: 9, index: 0, instanceId: newId }),
        moveComponent(sampleIds.footer, 0),
        removeComponent(sampleIds.tiered),
        setConditional(sampleIds.footer, 8, ['a', 'b']),
      ];
      const values = [setFieldValue(heroHeadline, 'Welcome'), setSubject('null_branch', 'en-US', 'Sale')];
      const result = mergeBothWays(base, apply(base, ...structure), apply(base, ...values));
      expect(sameDocument(result, apply(base, ...structure, ...values))).toBe(true);
    });

    it('reports both sides changing the order or membership of the body differently', () => {
      const base = sampleDocument();
      expect(
        conflicts(
          mergeDocuments(
            base,
            apply(base, insertComponent({ componentId: 9, index: 0, instanceId: newId })),
            apply(base, moveComponent(sampleIds.footer, 0)),
          ),
        ),
      ).toEqual(['content.component_instances (order)']);
      // The same structural change on both sides is fine.
      const moved = moveComponent(sampleIds.footer, 0);
      mergeBothWays(base, apply(base, moved, setFieldValue(heroHeadline, 'A')), apply(base, moved));
    });

    it('reports an instance removed on one side and changed on the other', () => {
      const base = sampleDocument();
      expect(
        conflicts(
          mergeDocuments(
            base,
            apply(base, removeComponent(sampleIds.hero)),
            apply(base, setFieldValue(heroHeadline, 'Hey')),
          ),
        ),
      ).toEqual([`content.component_instances.${sampleIds.hero}: removed on one side, changed on the other`]);
    });

    it('reports an instance whose conditional changed on one side and values on the other', () => {
      const base = sampleDocument();
      expect(
        conflicts(
          mergeDocuments(
            base,
            apply(base, setConditional(sampleIds.hero, 7, ['gold'])),
            apply(base, setFieldValue(heroHeadline, 'Hey')),
          ),
        ),
      ).toEqual([
        `content.component_instances.${sampleIds.hero}: its component or conditional changed on one side, its values on the other`,
      ]);
      expect(
        conflicts(
          mergeDocuments(
            base,
            apply(base, setSubjectConditional(7, ['gold'])),
            apply(base, setSubject('null_branch', 'en-US', 'Sale')),
          ),
        ),
      ).toHaveLength(1);
    });

    it('merges a duplicate on one side with edits of the original on the other, the copy as duplicated', () => {
      const base = sampleDocument();
      const duplicated = apply(base, duplicateComponent(sampleIds.hero, newId));
      const edited = apply(base, setFieldValue(heroHeadline, 'Hey'));
      expect(
        sameDocument(
          mergeBothWays(base, duplicated, edited),
          apply(duplicated, setFieldValue(heroHeadline, 'Hey')),
        ),
      ).toBe(true);
    });

    it('merges a property it does not know about as a unit', () => {
      const base = sampleDocument();
      const withExtra = (document: EditorDocument, extra: unknown) =>
        ({ ...document, content: { ...document.content, extra } }) as EditorDocument;
      const mine = apply(base, setFieldValue(heroHeadline, 'Hey'));
      expect(mergeBothWays(base, mine, withExtra(base, { a: 1 }))).toMatchObject({
        content: { extra: { a: 1 } },
      });
      expect(conflicts(mergeDocuments(base, withExtra(mine, 1), withExtra(base, 2)))).toEqual([
        'content.extra',
      ]);
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties over random emails and random edits.

const variables = ['headline', 'body', 'link'];
const parameters = ['utm_source', 'utm_medium'];
const conditionalBranches = ['gold', 'silver'];

/** A random email's shape: its extra locales and its body instances (with or without a conditional). */
const shapeArbitrary = fc.record({
  extraLocales: fc.subarray(['fr-FR', 'de-DE']),
  instances: fc.array(fc.boolean(), { maxLength: 4 }),
});

function skeleton(shape: { extraLocales: string[]; instances: boolean[] }): EditorDocument {
  const text = { conditional_id: null, branch_content: { null_branch: { 'en-US': 'Hello' } } };
  return {
    locales: ['en-US', ...shape.extraLocales],
    defaultLocale: 'en-US',
    content: {
      subject: text,
      preheader: structuredClone(text),
      container_component_instance: {
        id: 'container',
        component_id: 1,
        conditional_id: null,
        field_values: {},
      },
      component_instances: shape.instances.map((conditional, index) => ({
        id: `instance-${index}`,
        component_id: 2 + index,
        conditional_id: conditional ? 7 : null,
        field_values: {},
      })),
    },
  };
}

/** A leaf edit, by indexes that pick what it addresses in the email it is resolved against. */
type LeafEdit = {
  kind: 'value' | 'parameter' | 'subject' | 'preheader' | 'hidden' | 'rename' | 'global';
  instance: number;
  branch: number;
  locale: number;
  variable: number;
  parameter: number;
  value: string;
  remove: boolean;
};

const leafEditArbitrary: fc.Arbitrary<LeafEdit> = fc.record({
  kind: fc.constantFrom(
    'value',
    'value',
    'value',
    'parameter',
    'subject',
    'preheader',
    'hidden',
    'rename',
    'global',
  ),
  instance: fc.nat(10),
  branch: fc.nat(1),
  locale: fc.nat(2),
  variable: fc.nat(2),
  parameter: fc.nat(1),
  value: fc.constantFrom('a', 'b', 'c', 'd'),
  remove: fc.boolean(),
});

/** The command a leaf edit means in `document`, and the leaf it writes; null when it fits nothing there. */
function resolveLeaf(
  document: EditorDocument,
  edit: LeafEdit,
): { command: EditorCommand; leaf: string; instanceId?: string; locale?: string } | null {
  const instances = [document.content.container_component_instance, ...document.content.component_instances];
  const instance = instances[edit.instance % instances.length];
  if (!instance) return null;
  const locale = document.locales[edit.locale % document.locales.length] as string;
  const branches = instance.conditional_id === 7 ? conditionalBranches : ['null_branch'];
  const target = {
    instanceId: instance.id,
    branch: branches[edit.branch % branches.length] as string,
    locale,
    variable: variables[edit.variable] as string,
  };
  const leaf = (...parts: string[]) => JSON.stringify([edit.kind, ...parts]);
  const valueLeaf = [target.instanceId, target.branch, locale, target.variable];
  switch (edit.kind) {
    case 'value':
      return {
        command: setFieldValue(target, edit.value),
        leaf: leaf(...valueLeaf),
        instanceId: instance.id,
        locale,
      };
    case 'parameter': {
      const stored = instance.field_values[target.branch]?.[locale]?.[target.variable];
      if (stored === undefined) return null;
      const parameter = parameters[edit.parameter] as string;
      return {
        command: setLinkTrackingParameter(target, parameter, edit.remove ? null : edit.value),
        leaf: leaf(...valueLeaf, parameter),
        instanceId: instance.id,
        locale,
      };
    }
    case 'subject':
      return { command: setSubject('null_branch', locale, edit.value), leaf: leaf(locale), locale };
    case 'preheader':
      return { command: setPreheader('null_branch', locale, edit.value), leaf: leaf(locale), locale };
    case 'hidden':
      if (instance === document.content.container_component_instance) return null;
      return {
        command: setHiddenInLocale(instance.id, locale, !edit.remove),
        leaf: leaf(instance.id, locale),
        instanceId: instance.id,
        locale,
      };
    case 'rename':
      return {
        command: renameComponent(instance.id, edit.remove ? '' : edit.value),
        leaf: leaf(instance.id),
        instanceId: instance.id,
      };
    case 'global': {
      const parameter = parameters[edit.parameter] as string;
      return {
        command: setGlobalLinkTrackingParameter(parameter, edit.remove ? null : edit.value),
        leaf: leaf(parameter),
      };
    }
  }
}

/** A random email: a skeleton with random values written into it. */
const baseArbitrary = fc
  .record({ shape: shapeArbitrary, edits: fc.array(leafEditArbitrary, { maxLength: 25 }) })
  .map(({ shape, edits }) =>
    edits.reduce((document, edit) => {
      const resolved = resolveLeaf(document, edit);
      return resolved ? applyCommand(document, resolved.command) : document;
    }, skeleton(shape)),
  );

/** A change of structure, by indexes into the email it is resolved against. */
type StructureEdit = {
  kind:
    | 'insert'
    | 'move'
    | 'remove'
    | 'duplicate'
    | 'conditional'
    | 'translate'
    | 'removeLocale'
    | 'defaultLocale'
    | 'subjectConditional';
  instance: number;
  index: number;
  value: string;
};

const structureEditArbitrary: fc.Arbitrary<StructureEdit> = fc.record({
  kind: fc.constantFrom(
    'insert',
    'move',
    'remove',
    'duplicate',
    'conditional',
    'translate',
    'removeLocale',
    'defaultLocale',
    'subjectConditional',
  ),
  instance: fc.nat(3),
  index: fc.nat(4),
  value: fc.constantFrom('x', 'y'),
});

/**
 * The commands a structure edit means in `document`, and what the other side must then leave
 * alone: an instance's values (`values:<id>`), all of an instance (`instance:<id>`), a locale
 * (`locale:<code>`), the subject (`subject`).
 */
function resolveStructure(
  document: EditorDocument,
  edit: StructureEdit,
  serial: number,
): { commands: EditorCommand[]; reserves: string[] } | null {
  const body = document.content.component_instances;
  const instance = body[edit.instance % Math.max(body.length, 1)];
  const otherLocales = document.locales.filter((locale) => locale !== document.defaultLocale);
  const otherLocale = otherLocales[edit.index % Math.max(otherLocales.length, 1)];
  switch (edit.kind) {
    case 'insert':
      return {
        commands: [
          insertComponent({
            componentId: 9,
            index: edit.index % (body.length + 1),
            instanceId: `new-${serial}`,
            fieldValues: { null_branch: { [document.defaultLocale]: { headline: { value: edit.value } } } },
          }),
        ],
        reserves: [],
      };
    case 'move':
      return instance
        ? { commands: [moveComponent(instance.id, edit.index % body.length)], reserves: [] }
        : null;
    case 'remove':
      return instance
        ? { commands: [removeComponent(instance.id)], reserves: [`instance:${instance.id}`] }
        : null;
    case 'duplicate':
      return instance
        ? { commands: [duplicateComponent(instance.id, `copy-${serial}`)], reserves: [] }
        : null;
    case 'conditional':
      return instance
        ? {
            commands: [
              setConditional(instance.id, instance.conditional_id === 7 ? 8 : 7, conditionalBranches),
            ],
            reserves: [`values:${instance.id}`],
          }
        : null;
    case 'translate': {
      // What an AI translation does: a new locale, its subject and values.
      const locale = `t${serial}-XX`;
      return {
        commands: [
          addLocale(locale),
          setSubject('null_branch', locale, edit.value),
          ...body
            .filter((item) => item.conditional_id !== 7)
            .map((item) =>
              setFieldValue(
                { instanceId: item.id, branch: 'null_branch', locale, variable: 'headline' },
                edit.value,
              ),
            ),
        ],
        reserves: [],
      };
    }
    case 'removeLocale':
      return otherLocale
        ? { commands: [removeLocale(otherLocale)], reserves: [`locale:${otherLocale}`] }
        : null;
    case 'defaultLocale':
      return otherLocale ? { commands: [setDefaultLocale(otherLocale)], reserves: [] } : null;
    case 'subjectConditional':
      return { commands: [setSubjectConditional(7, conditionalBranches)], reserves: ['subject'] };
  }
}

/** Applies each command that fits, skipping the rest (a structure edit may undo what a later one needs). */
function applyFitting(document: EditorDocument, commands: EditorCommand[]): EditorDocument {
  return commands.reduce((current, command) => {
    try {
      return applyCommand(current, command);
    } catch (error) {
      if (error instanceof InvalidCommandError) return current;
      throw error;
    }
  }, document);
}

interface Scenario {
  base: EditorDocument;
  leafEdits: { edit: LeafEdit; mine: boolean }[];
  /** The side that changes the email's structure, if any. */
  structureSide: 'mine' | 'theirs' | 'none';
  structureEdits: StructureEdit[];
}

const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  base: baseArbitrary,
  leafEdits: fc.array(fc.record({ edit: leafEditArbitrary, mine: fc.boolean() }), { maxLength: 12 }),
  structureSide: fc.constantFrom('mine', 'theirs', 'none'),
  structureEdits: fc.array(structureEditArbitrary, { minLength: 1, maxLength: 4 }),
});

/**
 * Two sides' edits of one email that touch different leaves, and at most one side changing its
 * structure (with the other side keeping off what that structure change re-keys or removes).
 * `expected` is both applied one after the other: the structure side first.
 */
function disjointEdits(scenario: Scenario) {
  const { base } = scenario;
  const taken = new Set<string>();
  const leaves = scenario.leafEdits.flatMap(({ edit, mine }) => {
    const resolved = resolveLeaf(base, edit);
    if (resolved === null || taken.has(resolved.leaf)) return [];
    taken.add(resolved.leaf);
    return [{ ...resolved, mine }];
  });
  let structureDocument = base;
  const reserves = new Set<string>();
  const structureCommands: EditorCommand[] = [];
  if (scenario.structureSide !== 'none') {
    const structureIsMine = scenario.structureSide === 'mine';
    structureDocument = applyFitting(
      base,
      leaves.filter((leaf) => leaf.mine === structureIsMine).map((leaf) => leaf.command),
    );
    scenario.structureEdits.forEach((edit, serial) => {
      const resolved = resolveStructure(structureDocument, edit, serial);
      if (resolved === null) return;
      const next = applyFitting(structureDocument, resolved.commands);
      if (next === structureDocument) return;
      structureDocument = next;
      structureCommands.push(...resolved.commands);
      for (const reserve of resolved.reserves) reserves.add(reserve);
    });
  }
  const leftAlone = (leaf: (typeof leaves)[number]) =>
    !(
      (leaf.instanceId &&
        (reserves.has(`instance:${leaf.instanceId}`) ||
          (reserves.has(`values:${leaf.instanceId}`) && /^\["(value|parameter)"/.test(leaf.leaf)))) ||
      (leaf.locale && reserves.has(`locale:${leaf.locale}`)) ||
      (reserves.has('subject') && leaf.leaf.startsWith('["subject"'))
    );
  const sideCommands = (mine: boolean) => {
    const structureHere = scenario.structureSide === (mine ? 'mine' : 'theirs');
    return [
      ...leaves
        .filter((leaf) => leaf.mine === mine && (structureHere || leftAlone(leaf)))
        .map((leaf) => leaf.command),
      ...(structureHere ? structureCommands : []),
    ];
  };
  const mineCommands = sideCommands(true);
  const theirsCommands = sideCommands(false);
  const mine = applyFitting(base, mineCommands);
  const theirs = applyFitting(base, theirsCommands);
  const expected =
    scenario.structureSide === 'theirs'
      ? applyFitting(theirs, mineCommands)
      : applyFitting(mine, theirsCommands);
  return { base, mine, theirs, expected };
}

describe('mergeDocuments, properties', () => {
  it('merges disjoint edits of a random email into one holding both sides’ edits, whichever side is mine', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const { base, mine, theirs, expected } = disjointEdits(scenario);
        const result = merged(mergeDocuments(base, mine, theirs));
        expect(sameDocument(result, expected)).toBe(true);
        expect(sameDocument(merged(mergeDocuments(base, theirs, mine)), result)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('reports a conflict when both sides change the same value differently, whatever else they change', () => {
    fc.assert(
      fc.property(scenarioArbitrary, leafEditArbitrary, (scenario, clash) => {
        const { base, mine, theirs } = disjointEdits({ ...scenario, structureSide: 'none' });
        // A hidden flag has only two states, and parameters need a stored value: clash on the other leaves.
        const kind = clash.kind === 'parameter' || clash.kind === 'hidden' ? 'value' : clash.kind;
        const resolved = resolveLeaf(base, { ...clash, kind, remove: false });
        fc.pre(resolved !== null);
        const command = resolved?.command as EditorCommand;
        const withValue = (document: EditorDocument, value: string): EditorDocument => {
          switch (command.type) {
            case 'setFieldValue':
              return applyCommand(document, { ...command, value });
            case 'setSubject':
            case 'setPreheader':
              return applyCommand(document, { ...command, text: value });
            case 'renameComponent':
            case 'setGlobalLinkTrackingParameter':
              return applyCommand(document, {
                ...command,
                ...(command.type === 'renameComponent' ? { name: value } : { value }),
              });
            default:
              return document;
          }
        };
        const result = mergeDocuments(base, withValue(mine, 'mine'), withValue(theirs, 'theirs'));
        expect(conflicts(result).length).toBeGreaterThan(0);
        expect(
          conflicts(mergeDocuments(base, withValue(theirs, 'theirs'), withValue(mine, 'mine'))).length,
        ).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});
