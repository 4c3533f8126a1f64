import { describe, expect, it } from 'vitest';
import type { EmailContent } from '../content/types.ts';
import type { ConditionalDefinition } from '../dynamic-content/conditionals.ts';
import type { ComponentDefinition } from '../render/design-system.ts';
import { audiencesToCheck, maxAudiencesPerLocale } from './audience-checks.ts';
import { type LocaleRender, runPreSendChecks } from './pre-send-checks.ts';

const syntax = (keys: string[]) => ({
  closing: '',
  branch_values: Object.fromEntries(keys.map((key) => [key, ''])),
});
const tier: ConditionalDefinition = {
  id: 1,
  label: 'Tier',
  branches: [
    { key: 'gold', label: 'Gold members' },
    { key: 'else', label: 'Everyone else' },
  ],
  default_syntax: syntax(['gold', 'else']),
};
const country: ConditionalDefinition = {
  id: 2,
  label: 'Country',
  branches: [
    { key: 'de', label: 'Germany' },
    { key: 'fr', label: 'France' },
    { key: 'other', label: 'Elsewhere' },
  ],
  default_syntax: syntax(['de', 'fr', 'other']),
  default_branch_key: 'de',
};

const container: ComponentDefinition = {
  id: 1,
  name: 'container',
  label: 'Container',
  container: true,
  template: '{{ children }}',
  field_definitions: [],
};
const content: EmailContent = {
  subject: { branch_content: { null_branch: { 'en-US': 'Hello' } } },
  preheader: { branch_content: { null_branch: { 'en-US': 'Read on' } } },
  container_component_instance: { id: 'c', component_id: 1, field_values: {} },
  component_instances: [],
};

describe('audiences to check', () => {
  it('are the default audience, then every other branch of each conditional used', () => {
    const { audiences, unchecked } = audiencesToCheck([country, tier], [1, 2]);
    expect(audiences).toEqual([
      { branch: null, selection: {} },
      { branch: { conditional_id: 1, branch: 'gold' }, selection: { 1: 'gold' } },
      { branch: { conditional_id: 2, branch: 'fr' }, selection: { 2: 'fr' } },
      { branch: { conditional_id: 2, branch: 'other' }, selection: { 2: 'other' } },
    ]);
    expect(unchecked).toEqual([]);
    expect(audiencesToCheck([country, tier], [])).toEqual({
      audiences: [{ branch: null, selection: {} }],
      unchecked: [],
    });
  });

  it('stop at the bound and name the branches past it', () => {
    const keys = Array.from({ length: 30 }, (_, index) => `b${index}`);
    const wide: ConditionalDefinition = {
      id: 9,
      label: 'Wide',
      branches: keys.map((key) => ({ key, label: key })),
      default_syntax: syntax(keys),
    };
    const { audiences, unchecked } = audiencesToCheck([wide], [9]);
    expect(audiences).toHaveLength(maxAudiencesPerLocale);
    // 29 branches besides the default (b29): 19 rendered, 10 past the bound.
    expect(unchecked.map((branch) => branch.branch)).toEqual(keys.slice(19, 29));
  });
});

describe('pre-send checks per audience', () => {
  const broken = '<a href="#">Buy</a>';
  const fine = '<a href="https://example.com">Buy</a>';
  const check = (renders: LocaleRender[]) =>
    runPreSendChecks({
      content,
      locales: ['en-US'],
      defaultLocale: 'en-US',
      components: [container],
      validation: { valid: true, validation_errors: {} },
      renders,
      dynamicContent: { profile: null, conditionals: [tier, country] },
    }).problems.filter((problem) => problem.code === 'empty_link');
  const render = (html: string, audience: LocaleRender['audience']): LocaleRender => ({
    locale: 'en-US',
    html,
    diagnostics: [],
    audience,
  });

  it('tell a problem of one branch with that branch, once', () => {
    const problems = check([
      render(fine, null),
      render(broken, { conditional_id: 1, branch: 'gold' }),
      render(fine, { conditional_id: 2, branch: 'fr' }),
    ]);
    expect(problems.map((p) => [p.branch, p.conditional_id, p.severity])).toEqual([['gold', 1, 'blocking']]);
  });

  it('tell a problem of a default branch with it, not with the other conditionals’ branches', () => {
    const problems = check([
      render(broken, null),
      render(fine, { conditional_id: 1, branch: 'gold' }),
      render(broken, { conditional_id: 2, branch: 'fr' }),
    ]);
    expect(problems.map((p) => [p.branch, p.conditional_id])).toEqual([['else', 1]]);
  });

  it('tell a problem every audience shows once, for the whole email', () => {
    const problems = check([
      render(broken, null),
      render(broken, { conditional_id: 1, branch: 'gold' }),
      render(broken, { conditional_id: 2, branch: 'fr' }),
    ]);
    expect(problems.map((p) => [p.branch, p.conditional_id])).toEqual([[null, undefined]]);
  });

  it('keep a problem of the compiled render only when no audience shows it', () => {
    const compiled = render(`${broken}<a href="ftp://x">F</a>`, undefined);
    const problems = runPreSendChecks({
      content,
      locales: ['en-US'],
      defaultLocale: 'en-US',
      components: [container],
      validation: { valid: true, validation_errors: {} },
      renders: [compiled, render(fine, null), render(broken, { conditional_id: 1, branch: 'gold' })],
      dynamicContent: { profile: { id: 'esp', name: 'ESP' }, conditionals: [tier] },
    }).problems;
    expect(problems.map((p) => [p.code, p.branch])).toEqual([
      ['empty_link', 'gold'],
      ['unsupported_link', null],
    ]);
  });

  it('warn about branches past the bound', () => {
    const result = runPreSendChecks({
      content,
      locales: ['en-US'],
      defaultLocale: 'en-US',
      components: [container],
      validation: { valid: true, validation_errors: {} },
      renders: [render(fine, null)],
      dynamicContent: { profile: null, conditionals: [country] },
      uncheckedAudiences: [{ conditional_id: 2, branch: 'fr' }],
    });
    expect(result.ready).toBe(true);
    expect(result.problems).toEqual([
      expect.objectContaining({
        code: 'audiences_not_checked',
        severity: 'warning',
        message: expect.stringContaining('Country: France'),
      }),
    ]);
  });
});
