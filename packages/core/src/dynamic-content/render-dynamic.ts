import {
  type BranchedText,
  type ComponentInstance,
  type EmailContent,
  type FieldValues,
  nullBranch,
} from '../content/types.ts';
import type { FieldDefinition } from '../fields/types.ts';
import type { Diagnostic } from '../render/diagnostics.ts';
import { escapeHtml } from '../render/html-escape.ts';
import {
  branchForAudience,
  type ConditionalDefinition,
  compileBranchedText,
  compileConditional,
} from './conditionals.ts';
import { type LinkTrackingProfileDefinition, trackLinksInHtml, trackUrl } from './link-tracking.ts';
import {
  type PersonalizationTagDefinition,
  showPersonalizationTagNamesInHtml,
  substitutePersonalizationTags,
} from './personalization-tags.ts';

/**
 * Dynamic content for one render (`RenderInput.dynamicContent`):
 *  - `export` mode for a profile compiles every conditional into the profile's syntax (else a
 *    non-empty default syntax; with neither, the conditional's default branch and a
 *    `missing_conditional_syntax` diagnostic). `export` mode without a profile, and every other
 *    mode, show one branch per conditional: the one `branchSelection` names, else the
 *    conditional's default branch (`compileConditional` defines both).
 *  - preview modes show tags' example values (the editor preview their names when
 *    `showPersonalizationTagNames`); `export` and `render_api` show the profile's value, else the
 *    default value.
 *  - the link tracking profile (the email's) tracks url fields and rich-text links in every mode.
 */
export interface DynamicContentInput {
  /**
   * The export's dynamic content profile; null or absent: an export shows one branch per
   * conditional (no syntax) and personalization tags' default values.
   */
  profileId?: string | null;
  conditionals?: readonly ConditionalDefinition[];
  personalizationTags?: readonly PersonalizationTagDefinition[];
  linkTrackingProfile?: LinkTrackingProfileDefinition | null;
  /**
   * `editor_preview` only: show each tag's name (`{First name}`, a chip-like span in HTML text)
   * instead of its example value, so the author sees where the tags are. Other modes ignore it.
   */
  showPersonalizationTagNames?: boolean;
}

export const dynamicContentDiagnosticCodes = {
  unknownConditional: 'unknown_conditional',
  conditionalNotAllowedInSubject: 'conditional_not_allowed_in_subject_and_preheader',
  unknownPersonalizationTag: 'unknown_personalization_tag',
  /** An export for a profile the conditional has no syntax for (neither its own nor a non-empty default). */
  missingConditionalSyntax: 'missing_conditional_syntax',
} as const;

type Mode = 'export' | 'render_api' | 'email_design_system_preview' | 'editor_preview';

/** Compiles conditionals during an export render; `null` in the other modes. */
export interface ConditionalCompiler {
  /** Subject or preheader as exported, or undefined when it has no conditional. */
  text(text: BranchedText | undefined, locale: string): string | undefined;
  /** An instance as exported (see `compileConditional`), or undefined when it has no conditional. */
  instance(instance: ComponentInstance, renderBranch: (branchKey: string) => string): string | undefined;
}

export function conditionalCompiler(
  mode: Mode,
  dynamicContent: DynamicContentInput | undefined,
  report: (diagnostic: Omit<Diagnostic, 'severity'>, instance?: ComponentInstance) => void,
  selection?: Readonly<Record<string, string>>,
): ConditionalCompiler | null {
  if (!dynamicContent || mode !== 'export') return null;
  const profileId = dynamicContent.profileId ?? null;
  const conditionals = new Map((dynamicContent.conditionals ?? []).map((c) => [c.id, c]));
  const find = (id: number, instance?: ComponentInstance) => {
    const conditional = conditionals.get(id);
    if (!conditional)
      report(
        { code: dynamicContentDiagnosticCodes.unknownConditional, message: `No conditional with id ${id}` },
        instance,
      );
    return conditional;
  };
  const missingReported = new Set<number>();
  /** No syntax for the profile: told once per conditional, and its default branch stands in. */
  const withoutSyntax = (conditional: ConditionalDefinition, renderBranch: (key: string) => string) => {
    if (!missingReported.has(conditional.id)) {
      missingReported.add(conditional.id);
      report({
        code: dynamicContentDiagnosticCodes.missingConditionalSyntax,
        message: `Conditional ${conditional.label ?? conditional.id} has no syntax for dynamic content profile ${profileId}, and its default syntax is empty`,
      });
    }
    const key = branchForAudience(conditional, selection);
    return key === null ? '' : renderBranch(key);
  };
  return {
    text(text, locale) {
      if (text?.conditional_id === null || text?.conditional_id === undefined) return undefined;
      const conditional = find(text.conditional_id);
      if (!conditional) return '';
      if (conditional.can_be_used_in_subject_and_preheader === false) {
        report({
          code: dynamicContentDiagnosticCodes.conditionalNotAllowedInSubject,
          message: `Conditional ${conditional.label ?? conditional.id} cannot be used in the subject or preheader`,
        });
        return '';
      }
      const textOf = (key: string) => text.branch_content?.[key]?.[locale] ?? '';
      return (
        compileBranchedText(text, conditional, profileId, locale, selection) ??
        withoutSyntax(conditional, textOf)
      );
    },
    instance(instance, renderBranch) {
      if (instance.conditional_id === null || instance.conditional_id === undefined) return undefined;
      const conditional = find(instance.conditional_id, instance);
      if (!conditional) return '';
      return (
        compileConditional(conditional, profileId, renderBranch, selection) ??
        withoutSyntax(conditional, renderBranch)
      );
    },
  };
}

function trackFieldValues(
  fieldValues: FieldValues,
  definitions: readonly FieldDefinition[],
  profile: LinkTrackingProfileDefinition,
  global: Record<string, string> | undefined,
  rendered: { branches: readonly string[]; locale: string },
): FieldValues {
  // The rendered branches and locale get an entry even without stored values, so that their
  // defaults are tracked too; missing branches go last, keeping the first branch first.
  const all: FieldValues = { ...fieldValues };
  for (const branch of rendered.branches) all[branch] = { [rendered.locale]: {}, ...all[branch] };
  const tracked: FieldValues = {};
  for (const [branch, locales] of Object.entries(all)) {
    tracked[branch] = {};
    for (const [locale, fields] of Object.entries(locales ?? {})) {
      const copy = { ...fields };
      for (const definition of definitions) {
        if (definition.type !== 'url' && definition.type !== 'rich_text') continue;
        if (definition.type === 'url' && definition.skip_link_tracking === true) continue;
        const stored = copy[definition.liquid_variable];
        const value = stored?.value ?? definition.default_value;
        if (typeof value !== 'string') continue;
        const values = { field: stored?.link_tracking_parameters, global };
        const trackedValue =
          definition.type === 'url'
            ? trackUrl(value, profile, values)
            : trackLinksInHtml(value, profile, values);
        if (trackedValue !== value) copy[definition.liquid_variable] = { ...stored, value: trackedValue };
      }
      tracked[branch][locale] = copy;
    }
  }
  return tracked;
}

/**
 * The content with link tracking applied to the values of url fields (unless the field sets
 * `skip_link_tracking`) and to the links of rich_text values, a field's default included (for
 * the rendered locale, in every branch of the instance's conditional).
 */
export function applyLinkTracking(
  content: EmailContent,
  fieldDefinitionsOf: (componentId: number) => readonly FieldDefinition[] | undefined,
  profile: LinkTrackingProfileDefinition,
  rendered: { locale: string; conditionals?: readonly ConditionalDefinition[] | undefined },
): EmailContent {
  const track = (instance: ComponentInstance): ComponentInstance => {
    const definitions = fieldDefinitionsOf(instance.component_id);
    if (!definitions) return instance;
    const branches =
      instance.conditional_id === null || instance.conditional_id === undefined
        ? [nullBranch]
        : (rendered.conditionals?.find((c) => c.id === instance.conditional_id)?.branches.map((b) => b.key) ??
          []);
    return {
      ...instance,
      field_values: trackFieldValues(
        instance.field_values,
        definitions,
        profile,
        content.global_link_tracking_parameters,
        {
          branches,
          locale: rendered.locale,
        },
      ),
    };
  };
  return {
    ...content,
    container_component_instance: track(content.container_component_instance),
    component_instances: content.component_instances.map(track),
  };
}

/** Replaces personalization tag tokens in a render's html, subject and preheader (in place). */
export function substituteRenderedTags(
  output: { html: string; subject: string; preheader: string; diagnostics: Diagnostic[] },
  options: { mode: Mode; html: boolean; strict: boolean; dynamicContent: DynamicContentInput },
): void {
  const tags = options.dynamicContent.personalizationTags ?? [];
  const preview = options.mode === 'editor_preview' || options.mode === 'email_design_system_preview';
  const names =
    options.mode === 'editor_preview' && options.dynamicContent.showPersonalizationTagNames === true;
  const substitution = names
    ? ({ kind: 'names' } as const)
    : preview
      ? ({ kind: 'example' } as const)
      : ({ kind: 'export', profileId: options.dynamicContent.profileId } as const);
  const unknown = new Set<number>();
  const onUnknown = (id: number) => unknown.add(id);
  output.html =
    names && options.html
      ? showPersonalizationTagNamesInHtml(output.html, tags, onUnknown)
      : substitutePersonalizationTags(output.html, tags, substitution, {
          ...(options.html ? { escape: escapeHtml } : {}),
          onUnknown,
        });
  output.subject = substitutePersonalizationTags(output.subject, tags, substitution, { onUnknown });
  output.preheader = substitutePersonalizationTags(output.preheader, tags, substitution, { onUnknown });
  for (const id of unknown) {
    output.diagnostics.push({
      code: dynamicContentDiagnosticCodes.unknownPersonalizationTag,
      severity: options.strict ? 'error' : 'warning',
      message: names
        ? `No personalization tag with id ${id}; it shows as {Unknown tag}`
        : `No personalization tag with id ${id}; its token was left out`,
    });
  }
}
