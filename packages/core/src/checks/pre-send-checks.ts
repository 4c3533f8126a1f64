import {
  collectTranslatableValues,
  readableText,
  type TranslatableValue,
  translationGap,
} from '../content/translatable-values.ts';
import { type BranchedText, type EmailContent, nullBranch } from '../content/types.ts';
import type { ContentValidationResult } from '../content/validate-content.ts';
import { type ConditionalDefinition, conditionalSyntaxFor } from '../dynamic-content/conditionals.ts';
import { lengthWithTagsAsOne, personalizationTagIdsIn } from '../dynamic-content/personalization-tags.ts';
import { dynamicContentDiagnosticCodes } from '../dynamic-content/render-dynamic.ts';
import { fieldMessages } from '../fields/index.ts';
import type { FieldDefinition } from '../fields/types.ts';
import { textDirectionOf } from '../locales.ts';
import type { ComponentDefinition } from '../render/design-system.ts';
import type { Diagnostic } from '../render/diagnostics.ts';
import {
  type AudienceBranch,
  maxAudiencesPerLocale,
  problemsPerAudience,
  type RenderProblems,
} from './audience-checks.ts';
import { htmlTags } from './html-tags.ts';
import {
  type PreSendCheckResult,
  type PreSendProblem,
  type PreSendProblemCode,
  preSendProblemCodes,
} from './pre-send-problems.ts';
import { readabilityProblems } from './readability.ts';

/** Gmail clips a message whose HTML is larger than 102 KB and hides the rest behind a link. */
export const gmailClippingBytes = 102 * 1024;

export interface LocaleRender {
  locale: string;
  html: string;
  diagnostics: readonly Diagnostic[];
  /**
   * The audience it shows (`audiencesToCheck`): null for every conditional at its default branch,
   * else one conditional at another branch. Absent: a render holding every audience (an export
   * for a profile) or of an email without conditionals.
   */
  audience?: AudienceBranch | null;
}

export interface PreSendCheckInput {
  content: EmailContent;
  /** The locales to check (an export's locales); others are ignored. */
  locales: readonly string[];
  /** Translations are compared against this locale's values. */
  defaultLocale: string;
  /** The design system's components, with the email's brand profile applied. */
  components: readonly ComponentDefinition[];
  /** `validateEmailContent` over the email (all its locales). */
  validation: ContentValidationResult;
  /**
   * The export render of each checked locale, and the renders of its audiences: problems found in
   * some audiences only are told with the branch they are in (`problemsPerAudience`).
   */
  renders: readonly LocaleRender[];
  /** The branch keys of a conditional, when known; otherwise the branches present in the content. */
  branchKeysOf?: (conditionalId: number) => readonly string[] | undefined;
  /**
   * The export's dynamic content profile (null: an export without one) and the workspace's
   * conditionals: an export for a profile needs a syntax for every conditional the email uses.
   */
  dynamicContent?: {
    profile: { id: string; name: string } | null;
    conditionals: readonly ConditionalDefinition[];
  };
  /** Branches whose audiences were not rendered (past `maxAudiencesPerLocale`). */
  uncheckedAudiences?: readonly AudienceBranch[];
}

/** Runs every check; problems come in locale order, blocking ones first within a locale. */
export function runPreSendChecks(input: PreSendCheckInput): PreSendCheckResult {
  const problems: PreSendProblem[] = [];
  const checked = new Set(input.locales);
  const add = (problem: Omit<PreSendProblem, 'branch' | 'component_instance_id'> & Partial<PreSendProblem>) =>
    problems.push({ branch: null, component_instance_id: null, ...problem });

  validationProblems(input, checked, add);
  missingSyntaxProblems(input, add);
  const byLocale = new Map<string, RenderProblems[]>();
  for (const rendered of input.renders) {
    if (!checked.has(rendered.locale)) continue;
    const found: PreSendProblem[] = [];
    const addFound: Add = (problem) => found.push({ branch: null, component_instance_id: null, ...problem });
    renderProblems(rendered, addFound);
    byLocale.set(rendered.locale, [
      ...(byLocale.get(rendered.locale) ?? []),
      { audience: rendered.audience, problems: found },
    ]);
  }
  for (const renders of byLocale.values())
    problems.push(...problemsPerAudience(renders, input.dynamicContent?.conditionals ?? []));
  uncheckedAudienceProblems(input, add);
  textProblems(input, add);
  untranslatedProblems(input, add);

  const localeOrder = new Map(input.locales.map((locale, index) => [locale, index]));
  const order = (problem: PreSendProblem) =>
    problem.locale === null ? -1 : (localeOrder.get(problem.locale) ?? 0);
  problems.sort(
    (a, b) => order(a) - order(b) || (a.severity === b.severity ? 0 : a.severity === 'blocking' ? -1 : 1),
  );
  const blocking = problems.filter((problem) => problem.severity === 'blocking').length;
  return {
    ready: blocking === 0,
    blocking_count: blocking,
    warning_count: problems.length - blocking,
    problems,
  };
}

/** A render diagnostic in words: the component, the problem, and where in its Liquid. */
export function diagnosticMessage(diagnostic: Diagnostic): string {
  const where =
    diagnostic.line === undefined ? '' : ` (line ${diagnostic.line}, column ${diagnostic.column ?? 1})`;
  return `${diagnostic.componentName ?? 'Template'}: ${diagnostic.message}${where}`;
}

type Add = (
  problem: Omit<PreSendProblem, 'branch' | 'component_instance_id'> & Partial<PreSendProblem>,
) => void;

/** What one render shows: its template and dynamic-content errors, and its HTML's problems. */
function renderProblems(rendered: LocaleRender, add: Add): void {
  for (const diagnostic of rendered.diagnostics) {
    if (diagnostic.severity !== 'error') continue;
    // Told once for the email by missingSyntaxProblems, naming the profile.
    if (diagnostic.code === dynamicContentDiagnosticCodes.missingConditionalSyntax) continue;
    add({
      code: preSendProblemCodes.renderError,
      severity: 'blocking',
      locale: rendered.locale,
      component_instance_id: diagnostic.componentInstanceId ?? null,
      message: diagnosticMessage(diagnostic),
    });
  }
  htmlProblems(rendered, add);
  for (const problem of readabilityProblems(rendered.html, rendered.locale))
    add({ ...problem, locale: rendered.locale });
}

/** Each conditional the email uses that has no syntax for the export's profile. */
function missingSyntaxProblems(input: PreSendCheckInput, add: Add): void {
  const profile = input.dynamicContent?.profile;
  if (!profile) return;
  const used = new Set(dynamicContentUsedIn(input.content, input.components, input.locales).conditional_ids);
  for (const conditional of input.dynamicContent?.conditionals ?? []) {
    if (!used.has(conditional.id) || conditionalSyntaxFor(conditional, profile.id) !== null) continue;
    add({
      code: preSendProblemCodes.missingConditionalSyntax,
      severity: 'blocking',
      locale: null,
      conditional_id: conditional.id,
      message:
        `The conditional “${conditional.label ?? conditional.id}” has no syntax for the dynamic content profile ` +
        `“${profile.name}” and its default syntax is empty: every reader would get every branch. Give it a ` +
        'syntax for that profile, or export without a profile (each reader then gets its default branch).',
    });
  }
}

function uncheckedAudienceProblems(input: PreSendCheckInput, add: Add): void {
  const unchecked = input.uncheckedAudiences ?? [];
  if (unchecked.length === 0) return;
  const labels = new Map((input.dynamicContent?.conditionals ?? []).map((c) => [c.id, c]));
  const names = unchecked.map(({ conditional_id, branch }) => {
    const conditional = labels.get(conditional_id);
    const label = conditional?.branches.find((candidate) => candidate.key === branch)?.label ?? branch;
    return `${conditional?.label ?? conditional_id}: ${label}`;
  });
  add({
    code: preSendProblemCodes.audiencesNotChecked,
    severity: 'warning',
    locale: null,
    message: `${unchecked.length} branches were not rendered for the checks (at most ${maxAudiencesPerLocale} audiences per locale are): ${names.join(', ')}`,
  });
}

interface InstanceInfo {
  name: string;
  fields: Map<string, FieldDefinition>;
}

/** How the editor names an instance (its own name, else its component's label), and its fields. */
function instanceInfo(input: PreSendCheckInput): Map<string, InstanceInfo> {
  const components = new Map(input.components.map((component) => [component.id, component]));
  const names = new Map<string, InstanceInfo>();
  for (const instance of [input.content.container_component_instance, ...input.content.component_instances]) {
    const component = components.get(instance.component_id);
    names.set(instance.id, {
      name: instance.name ?? component?.label ?? 'A component',
      fields: new Map(component?.field_definitions.map((field) => [field.liquid_variable, field]) ?? []),
    });
  }
  return names;
}

/** The longest a field's value may be (characters of its text), or null when it has no limit. */
function maxLengthOf(field: FieldDefinition): number | null {
  const limit =
    field.type === 'rich_text' ? field.validations?.max_content_length : field.validations?.max_length;
  return typeof limit === 'number' && (field.type === 'text' || field.type === 'rich_text') ? limit : null;
}

/** A field's value in one branch and locale, as stored (undefined when none is). */
function storedValue(
  input: PreSendCheckInput,
  instanceId: string,
  branch: string,
  locale: string,
  variable: string,
) {
  const instance = [input.content.container_component_instance, ...input.content.component_instances].find(
    (candidate) => candidate.id === instanceId,
  );
  return instance?.field_values?.[branch]?.[locale]?.[variable]?.value;
}

function validationProblems(input: PreSendCheckInput, checked: ReadonlySet<string>, add: Add): void {
  const instances = instanceInfo(input);
  for (const [owner, byKey] of Object.entries(input.validation.validation_errors)) {
    // A blank subject is a warning of its own (below), not a field validation.
    if (owner === 'subject' || owner === 'preheader') continue;
    const instance = instances.get(owner);
    for (const [key, messages] of Object.entries(byKey)) {
      const [branch, locale, variable] = key.split('.');
      if (locale === undefined || variable === undefined) {
        add({
          code: preSendProblemCodes.invalidContent,
          severity: 'blocking',
          locale: null,
          component_instance_id: owner,
          message: `${instance?.name ?? 'A component'}: ${key} ${messages.join('; ')}`,
        });
        continue;
      }
      if (!checked.has(locale)) continue;
      const field = instance?.fields.get(variable);
      const fieldLabel = field?.label ?? variable;
      let remaining = messages;
      // A translation that outgrew its field is told as such: the fix is a shorter translation.
      const limit = field ? maxLengthOf(field) : null;
      if (field && limit !== null && locale !== input.defaultLocale) {
        const tooLong = fieldMessages.atMostCharacters(limit);
        if (messages.includes(tooLong)) {
          remaining = messages.filter((message) => message !== tooLong);
          const format = field.type === 'rich_text' ? 'rich_text' : 'text';
          // Counted as the field's validation counts (a personalization tag is one character).
          const lengthOf = (value: unknown) =>
            typeof value === 'string' ? lengthWithTagsAsOne(readableText({ format }, value)) : 0;
          const translated = lengthOf(storedValue(input, owner, branch ?? nullBranch, locale, variable));
          const source = storedValue(input, owner, branch ?? nullBranch, input.defaultLocale, variable);
          add({
            code: preSendProblemCodes.translationTooLong,
            severity: 'blocking',
            locale,
            branch: branch ?? null,
            component_instance_id: owner,
            message:
              `${instance?.name ?? 'A component'}: ${fieldLabel} is ${translated} characters in ${locale}, ` +
              `at most ${limit} fit (${lengthOf(source ?? field.default_value)} in ${input.defaultLocale})`,
          });
        }
      }
      if (remaining.length === 0) continue;
      add({
        code: preSendProblemCodes.invalidContent,
        severity: 'blocking',
        locale,
        branch: branch ?? null,
        component_instance_id: owner,
        message: `${instance?.name ?? 'A component'}: ${fieldLabel} ${remaining.join('; ')}`,
      });
    }
  }
}

/** Sending-platform code in a link: the platform builds it at send time, so it is not checked here. */
const platformCode = /\{\{|\{%|%%|\[\[|\*\|/;

/** What is wrong with a link target, or null when it is fine. */
export function linkProblem(href: string): { code: PreSendProblemCode; message: string } | null {
  const target = href.trim();
  if (target === '' || target === '#') {
    return { code: preSendProblemCodes.emptyLink, message: 'A link has no target' };
  }
  if (/\{tag:\d+\}/.test(target)) {
    return {
      code: preSendProblemCodes.unresolvedLink,
      message: `The link ${quote(target)} holds an unresolved tag`,
    };
  }
  if (platformCode.test(target)) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
  if (scheme === 'mailto') {
    return target.slice('mailto:'.length).trim() === ''
      ? { code: preSendProblemCodes.unresolvedLink, message: 'A mailto: link names no address' }
      : null;
  }
  if (scheme !== 'http' && scheme !== 'https') {
    return {
      code: preSendProblemCodes.unsupportedLink,
      message: `The link ${quote(target)} is not an http(s) or mailto: link`,
    };
  }
  if (!/^https?:\/\/[^/?#\s]*[a-z0-9][^/?#\s]*([/?#]\S*)?$/i.test(target) || hostOf(target) === '') {
    return {
      code: preSendProblemCodes.unresolvedLink,
      message: `The link ${quote(target)} is not a complete address`,
    };
  }
  return null;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

function quote(text: string): string {
  return `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;
}

function htmlProblems(rendered: LocaleRender, add: Add): void {
  const locale = rendered.locale;
  const seenLinks = new Set<string>();
  let imagesWithoutAlt = 0;
  for (const tag of htmlTags(rendered.html, ['a', 'area', 'img'])) {
    if (tag.name === 'img') {
      if ((tag.attributes.get('alt') ?? '').trim() === '') imagesWithoutAlt += 1;
      continue;
    }
    const href = tag.attributes.get('href');
    if (href === undefined) continue;
    const problem = linkProblem(href);
    // One report per distinct link and problem: a footer link repeated ten times is one fix.
    if (!problem || seenLinks.has(`${problem.code} ${href}`)) continue;
    seenLinks.add(`${problem.code} ${href}`);
    add({ ...problem, severity: 'blocking', locale });
  }
  if (imagesWithoutAlt > 0) {
    add({
      code: preSendProblemCodes.missingAltText,
      severity: 'warning',
      locale,
      message:
        imagesWithoutAlt === 1 ? 'An image has no alt text' : `${imagesWithoutAlt} images have no alt text`,
    });
  }
  if (textDirectionOf(locale) === 'rtl' && !setsRightToLeft(rendered.html)) {
    add({
      code: preSendProblemCodes.missingRtlDirection,
      severity: 'warning',
      locale,
      message: `${locale} is written right to left, but the HTML sets no dir="rtl" on <html> or <body>: use {{ render_context.email.text_direction }} in the container's template`,
    });
  }
  const bytes = new TextEncoder().encode(rendered.html).length;
  if (bytes > gmailClippingBytes) {
    add({
      code: preSendProblemCodes.htmlTooLarge,
      severity: 'warning',
      locale,
      message: `The HTML is ${kilobytes(bytes)}; Gmail clips messages over ${kilobytes(gmailClippingBytes)}`,
    });
  }
}

/**
 * Whether a document is laid out right to left: `dir="rtl"` on <html> or <body>; a fragment with
 * neither, on one of its block elements.
 */
function setsRightToLeft(html: string): boolean {
  const isRtl = (tag: { attributes: Map<string, string> }) =>
    (tag.attributes.get('dir') ?? '').trim().toLowerCase() === 'rtl';
  const documentTags = htmlTags(html, ['html', 'body']);
  if (documentTags.length > 0) return documentTags.some(isRtl);
  return htmlTags(html, ['table', 'div', 'td', 'th', 'p', 'center', 'section']).some(isRtl);
}

function kilobytes(bytes: number): string {
  return `${Math.round((bytes / 1024) * 10) / 10} KB`;
}

function branchesOf(
  conditionalId: number | null | undefined,
  present: Record<string, unknown> | undefined,
  branchKeysOf: PreSendCheckInput['branchKeysOf'],
): readonly string[] {
  if (conditionalId === null || conditionalId === undefined) return [nullBranch];
  return branchKeysOf?.(conditionalId) ?? Object.keys(present ?? {});
}

function textProblems(input: PreSendCheckInput, add: Add): void {
  const texts: [string, BranchedText, PreSendProblemCode][] = [
    ['subject', input.content.subject, preSendProblemCodes.missingSubject],
    ['preheader', input.content.preheader, preSendProblemCodes.missingPreheader],
  ];
  for (const [name, text, code] of texts) {
    const branches = branchesOf(text?.conditional_id, text?.branch_content, input.branchKeysOf);
    for (const locale of input.locales) {
      for (const branch of branches) {
        if ((text?.branch_content?.[branch]?.[locale] ?? '').trim() !== '') continue;
        add({
          code,
          severity: 'warning',
          locale,
          branch,
          message:
            branch === nullBranch ? `The ${name} is missing` : `The ${name} is missing in branch ${branch}`,
        });
      }
    }
  }
}

/**
 * Values of the other locales still to translate: nothing entered, a copy from another locale
 * nobody translated or edited since, or (content without translation statuses) the default
 * locale's text unchanged. A value marked translated or edited is never reported, even when it
 * equals the default locale's text (a brand name). Subject and preheader are told one by one (a
 * blank one is reported as missing above); fields are grouped per instance, branch and locale.
 */
function untranslatedProblems(input: PreSendCheckInput, add: Add): void {
  const source = input.defaultLocale;
  const targets = input.locales.filter((locale) => locale !== source);
  if (targets.length === 0) return;
  const values = collectTranslatableValues({
    content: input.content,
    components: input.components,
    branchKeysOf: input.branchKeysOf,
  });
  const groups = new Map<string, { value: TranslatableValue; locale: string; fields: string[] }>();
  for (const locale of targets) {
    for (const value of values) {
      const gap = translationGap(value, locale, source);
      if (gap === null) continue;
      if (value.source.kind !== 'field') {
        if (gap === 'missing') continue;
        add({
          code: preSendProblemCodes.untranslated,
          severity: 'warning',
          locale,
          branch: value.source.branch,
          message:
            gap === 'copied'
              ? `The ${value.source.kind} is still the copied text, not translated yet`
              : `The ${value.source.kind} is the same as in ${source}`,
        });
        continue;
      }
      const group = `${locale}\u0000${value.source.instanceId}\u0000${value.source.branch}`;
      const entry = groups.get(group) ?? { value, locale, fields: [] };
      entry.fields.push(value.fieldLabel);
      groups.set(group, entry);
    }
  }
  for (const { value, locale, fields } of groups.values()) {
    if (value.source.kind !== 'field') continue;
    add({
      code: preSendProblemCodes.untranslated,
      severity: 'warning',
      locale,
      branch: value.source.branch,
      component_instance_id: value.source.instanceId,
      message: `${value.componentLabel}: ${fields.join(', ')} not translated from ${source}`,
    });
  }
}

/** The conditionals and personalization tags an email's content (and its components' templates) use. */
export function dynamicContentUsedIn(
  content: EmailContent,
  components: readonly ComponentDefinition[],
  locales: readonly string[],
): { conditional_ids: number[]; personalization_tag_ids: number[] } {
  const conditionalIds = new Set<number>();
  const tagIds = new Set<number>();
  const byId = new Map(components.map((component) => [component.id, component]));
  const addTags = (text: unknown) => {
    if (typeof text === 'string') for (const id of personalizationTagIdsIn(text)) tagIds.add(id);
  };
  for (const text of [content.subject, content.preheader]) {
    if (!text) continue;
    if (text.conditional_id !== null && text.conditional_id !== undefined)
      conditionalIds.add(text.conditional_id);
    for (const byLocale of Object.values(text.branch_content ?? {}))
      for (const locale of locales) addTags(byLocale?.[locale]);
  }
  const instances = [content.container_component_instance, ...content.component_instances];
  for (const instance of instances) {
    if (locales.every((locale) => instance.hidden_from_locales?.[locale] === true)) continue;
    if (instance.conditional_id !== null && instance.conditional_id !== undefined)
      conditionalIds.add(instance.conditional_id);
    addTags(byId.get(instance.component_id)?.template);
    for (const byLocale of Object.values(instance.field_values ?? {}))
      for (const locale of locales)
        for (const field of Object.values(byLocale?.[locale] ?? {})) addTags(field?.value);
  }
  const sorted = (ids: Set<number>) => [...ids].sort((a, b) => a - b);
  return { conditional_ids: sorted(conditionalIds), personalization_tag_ids: sorted(tagIds) };
}
