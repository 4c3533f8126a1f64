import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runPreSendChecks } from '../checks/pre-send-checks.ts';
import type { ComponentInstance, EmailContent } from '../content/types.ts';
import type { ComponentDefinition, DesignSystemDefinition } from '../render/design-system.ts';
import { render } from '../render/render-email.ts';
import { type ConditionalDefinition, defaultBranchKey } from './conditionals.ts';
import type { ConditionalSyntax } from './presets.ts';

/*
 * What an export holds, for any conditionals, branches and contents: for a profile, every branch
 * of every conditional wrapped in that profile's syntax, in order; without a profile, exactly one
 * branch (the default) per conditional and no syntax; and a conditional with no syntax for the
 * profile is a blocking pre-send problem, never stacked output.
 */

const designSystem: DesignSystemDefinition = { id: 1, name: 'S', design_tokens: {}, custom_styles: [] };
const container: ComponentDefinition = {
  id: 1,
  name: 'container',
  label: 'Email',
  container: true,
  template: '{{ children }}',
  field_definitions: [],
};
const paragraph: ComponentDefinition = {
  id: 2,
  name: 'paragraph',
  label: 'Paragraph',
  container: false,
  template: '<p>{{ text }}</p>',
  field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'fallback' }],
};
const profile = 'esp';
const locale = 'en-US';

/** Syntax whose every piece names where it comes from, so the expected output can be spelled out. */
function markedSyntax(kind: string, id: number, keys: readonly string[]): ConditionalSyntax {
  return {
    closing: `[/${kind}${id}]`,
    branch_values: Object.fromEntries(keys.map((key) => [key, `[${kind}${id}:${key}]`])),
  };
}

const emptySyntax = (keys: readonly string[]): ConditionalSyntax => ({
  closing: '',
  branch_values: Object.fromEntries(keys.map((key) => [key, ''])),
});

/** How a conditional's syntax for the profile is set up. */
type SyntaxKind = 'own' | 'default' | 'none';

// Built once: arbitraries made inside `chain` are rebuilt for every sample.
const branchKeys = fc.uniqueArray(fc.constantFrom('gold', 'silver', 'else', 'vip', 'new_user', 'b7', 'x'), {
  minLength: 1,
  maxLength: 4,
});
const words = fc.nat({ max: 1_000_000 }).map((n) => n.toString(36));

const conditionalArbitrary = (id: number) =>
  fc
    .record({
      keys: branchKeys,
      syntax: fc.constantFrom<SyntaxKind>('own', 'default', 'none'),
      defaultIndex: fc.option(fc.nat(), { nil: null }),
    })
    .map(({ keys, syntax, defaultIndex }): ConditionalDefinition & { syntaxKind: SyntaxKind } => ({
      id,
      label: `Conditional ${id}`,
      branches: keys.map((key) => ({ key, label: key.toUpperCase() })),
      // 'own' keeps an empty default syntax: the profile's own syntax is what counts.
      default_syntax: syntax === 'default' ? markedSyntax('D', id, keys) : emptySyntax(keys),
      dynamic_content_profile_syntaxes: syntax === 'own' ? { [profile]: markedSyntax('P', id, keys) } : {},
      can_be_used_in_subject_and_preheader: true,
      default_branch_key: defaultIndex === null ? null : (keys[defaultIndex % keys.length] ?? null),
      syntaxKind: syntax,
    }));

const scenario = fc
  .integer({ min: 1, max: 3 })
  .chain((count) =>
    fc
      .tuple(...Array.from({ length: count }, (_, index) => conditionalArbitrary(index + 1)))
      .map((list) => list),
  )
  .chain((conditionals) =>
    fc.record({
      conditionals: fc.constant(conditionals),
      instances: fc.array(
        fc.record({
          conditional: fc.option(fc.constantFrom(...conditionals), { nil: null }),
          // Which branches store a value (the others render the field's default).
          stored: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
          word: words,
        }),
        { minLength: 1, maxLength: 5 },
      ),
      subjectConditional: fc.option(fc.constantFrom(...conditionals), { nil: null }),
    }),
  );

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** The value an instance stores in a branch, or undefined when it stores none there. */
function storedText(index: number, word: string, key: string, stored: readonly boolean[], position: number) {
  return stored[position % stored.length] ? `i${index}-${key}-${word}` : undefined;
}

function emailOf(input: Scenario): EmailContent {
  const instances: ComponentInstance[] = input.instances.map(({ conditional, stored, word }, index) => {
    const keys = conditional ? conditional.branches.map((branch) => branch.key) : ['null_branch'];
    const fieldValues: ComponentInstance['field_values'] = {};
    keys.forEach((key, position) => {
      const text = storedText(index, word, key, stored, position);
      fieldValues[key] = { [locale]: text === undefined ? {} : { text: { value: text } } };
    });
    return {
      id: `i${index}`,
      component_id: 2,
      conditional_id: conditional?.id ?? null,
      field_values: fieldValues,
    };
  });
  const subjectKeys = input.subjectConditional?.branches.map((branch) => branch.key) ?? ['null_branch'];
  return {
    subject: {
      conditional_id: input.subjectConditional?.id ?? null,
      branch_content: Object.fromEntries(subjectKeys.map((key) => [key, { [locale]: `s-${key}` }])),
    },
    preheader: { branch_content: { null_branch: { [locale]: 'pre' } } },
    container_component_instance: { id: 'c', component_id: 1, field_values: {} },
    component_instances: instances,
  };
}

function exportOf(input: Scenario, profileId: string | null) {
  return render({
    designSystem,
    components: [container, paragraph],
    brandProfile: null,
    content: emailOf(input),
    locale,
    mode: 'export',
    strict: true,
    dynamicContent: { profileId, conditionals: input.conditionals },
  });
}

/** The syntax the test set up for the profile, or null when it set up none. */
function syntaxFor(
  conditional: ConditionalDefinition & { syntaxKind: SyntaxKind },
): ConditionalSyntax | null {
  if (conditional.syntaxKind === 'own') return markedSyntax('P', conditional.id, keysOf(conditional));
  if (conditional.syntaxKind === 'default') return markedSyntax('D', conditional.id, keysOf(conditional));
  return null;
}

const keysOf = (conditional: ConditionalDefinition) => conditional.branches.map((branch) => branch.key);
const paragraphOf = (text: string | undefined) => `<p>${text ?? 'fallback'}</p>`;
const allHaveSyntax = (input: Scenario) =>
  [...input.instances.map((instance) => instance.conditional), input.subjectConditional].every(
    (conditional) => conditional === null || conditional.syntaxKind !== 'none',
  );

describe('an export, for any conditionals and contents', () => {
  it('for a profile holds every branch of every conditional, wrapped in that profile’s syntax, in order', () => {
    fc.assert(
      fc.property(
        scenario.filter((input) => allHaveSyntax(input)),
        (input) => {
          const expected = input.instances
            .map(({ conditional, stored, word }, index) => {
              if (!conditional) return paragraphOf(storedText(index, word, 'null_branch', stored, 0));
              const syntax = syntaxFor(conditional);
              if (!syntax) throw new Error('filtered out');
              const branches = keysOf(conditional).map(
                (key, position) =>
                  (syntax.branch_values[key] ?? '') +
                  paragraphOf(storedText(index, word, key, stored, position)),
              );
              return branches.join('') + syntax.closing;
            })
            .join('');
          const output = exportOf(input, profile);
          expect(output.html).toBe(expected);
          expect(output.diagnostics).toEqual([]);
          const subject = input.subjectConditional;
          const subjectSyntax = subject && syntaxFor(subject);
          expect(output.subject).toBe(
            subject && subjectSyntax
              ? keysOf(subject)
                  .map((key) => `${subjectSyntax.branch_values[key]}s-${key}`)
                  .join('') + subjectSyntax.closing
              : 's-null_branch',
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('without a profile holds exactly one branch per conditional, its default, and no syntax', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const expected = input.instances
          .map(({ conditional, stored, word }, index) => {
            if (!conditional) return paragraphOf(storedText(index, word, 'null_branch', stored, 0));
            const key = defaultBranchKey(conditional);
            const position = keysOf(conditional).indexOf(key ?? '');
            const chosen = conditional.default_branch_key ?? keysOf(conditional).at(-1);
            expect(key).toBe(chosen);
            return paragraphOf(storedText(index, word, key ?? '', stored, position));
          })
          .join('');
        const output = exportOf(input, null);
        expect(output.html).toBe(expected);
        expect(output.html).not.toMatch(/\[\/?[PD]\d/);
        expect(output.diagnostics).toEqual([]);
        const subject = input.subjectConditional;
        expect(output.subject).toBe(`s-${subject ? defaultBranchKey(subject) : 'null_branch'}`);
      }),
      { numRuns: 200 },
    );
  });

  it('for a profile a used conditional has no syntax for: a blocking check naming it, one branch in the output', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const content = emailOf(input);
        const used = new Set(
          [...input.instances.map((instance) => instance.conditional), input.subjectConditional].flatMap(
            (conditional) => (conditional ? [conditional.id] : []),
          ),
        );
        const missing = input.conditionals.filter(
          (conditional) => used.has(conditional.id) && conditional.syntaxKind === 'none',
        );
        const output = exportOf(input, profile);
        const checks = runPreSendChecks({
          content,
          locales: [locale],
          defaultLocale: locale,
          components: [container, paragraph],
          validation: { valid: true, validation_errors: {} },
          renders: [{ locale, html: output.html, diagnostics: output.diagnostics }],
          dynamicContent: { profile: { id: profile, name: 'The ESP' }, conditionals: input.conditionals },
        });
        const flagged = checks.problems.filter((problem) => problem.code === 'missing_conditional_syntax');
        expect(flagged.map((problem) => problem.conditional_id).sort()).toEqual(
          missing.map((conditional) => conditional.id).sort(),
        );
        for (const problem of flagged) {
          expect(problem.severity).toBe('blocking');
          expect(problem.message).toContain(`“Conditional ${problem.conditional_id}”`);
          expect(problem.message).toContain('“The ESP”');
        }
        expect(checks.ready).toBe(missing.length === 0);
        // Never stacked: a conditional without syntax shows one branch in each of its instances.
        input.instances.forEach(({ conditional }, index) => {
          if (conditional?.syntaxKind !== 'none') return;
          const shown = keysOf(conditional).filter((key) => output.html.includes(`i${index}-${key}-`));
          expect(shown.length).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 200 },
    );
  });
});
