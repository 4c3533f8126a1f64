import {
  type AudienceBranch,
  applyBrandProfile,
  audiencesToCheck,
  type ComponentDefinition,
  type DynamicContentInput,
  diagnosticMessage,
  dynamicContentUsedIn,
  type EmailContent,
  type LocaleRender,
  type PreSendCheckResult,
  type RenderInput,
  type RenderOutput,
  runPreSendChecks,
  textDirectionOf,
  validateEmailContent,
} from '@letterset/core';
import { and, eq } from 'drizzle-orm';
import { dynamicContentProfiles, projects, type StoredExportOptions } from '../../db/schema.ts';
import type { RenderBudget, Renderer } from '../../render-pool/render-pool.ts';
import type { Services } from '../../services.ts';
import { renderingContext } from '../emails/emails.rendering.ts';
import { contentOf, type EmailRow } from '../emails/emails.serializers.ts';
import { toDesignSystemDefinition } from '../renders/renders.service.ts';
import type { ExportImage } from './export-images.ts';

/**
 * Everything rendering an email for export needs besides the locale, loaded once per export (or
 * per check), never per locale: the design system, its components, the brand profile, the
 * workspace's dynamic content compiled for the chosen profile.
 */
export interface ExportContext {
  email: EmailRow;
  content: EmailContent;
  /** Every input of `render()` but the locale. */
  renderInput: Omit<RenderInput, 'locale' | 'email'> & { email: { id: number; name: string } };
  /** The components with the email's brand profile applied (what field validations read). */
  brandedComponents: ComponentDefinition[];
  dynamicContent: DynamicContentInput;
  /** The dynamic content profile exported for; null: an export without one (default branches). */
  profile: { id: string; name: string } | null;
}

export async function loadExportContext(
  services: Services,
  email: EmailRow,
  dynamicContentProfileId: string | null,
): Promise<ExportContext> {
  const [{ system, definitions, brandProfile, dynamicContent }, [project], [profile]] = await Promise.all([
    renderingContext(services, email, dynamicContentProfileId),
    services.database.db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(eq(projects.id, email.projectId)),
    dynamicContentProfileId === null
      ? []
      : services.database.db
          .select({ id: dynamicContentProfiles.id, name: dynamicContentProfiles.name })
          .from(dynamicContentProfiles)
          .where(
            and(
              eq(dynamicContentProfiles.id, dynamicContentProfileId),
              eq(dynamicContentProfiles.workspaceId, email.workspaceId),
            ),
          ),
  ]);
  const content = contentOf(email);
  return {
    email,
    content,
    renderInput: {
      designSystem: toDesignSystemDefinition(system),
      components: definitions,
      brandProfile,
      content,
      mode: 'export',
      strict: true,
      inlineCss: true,
      dynamicContent,
      email: { id: email.id, name: email.name },
      project: project ?? null,
    },
    brandedComponents: applyBrandProfile(definitions, brandProfile),
    dynamicContent,
    profile: profile ?? null,
  };
}

/**
 * The email in these locales as exported (CSS inlined, dynamic content as `compileConditional`
 * defines it: each conditional's default branch without a profile, every branch in the profile's
 * syntax with one; problems as diagnostics), rendered in the render pool within one budget that the locales share: a request
 * checking an email gives its own budget, an export job one budget per locale it writes.
 */
export async function renderForExport(
  renderer: Renderer,
  context: ExportContext,
  locales: readonly string[],
  options: { budget: RenderBudget; plainText?: boolean },
): Promise<Map<string, RenderOutput>> {
  const outputs = await renderer.render(
    locales.map((locale) => ({
      ...context.renderInput,
      locale,
      email: { ...context.renderInput.email, textDirection: textDirectionOf(locale) },
    })),
    options.budget,
    { plainText: options.plainText === true },
  );
  return new Map(
    locales.map((locale, index) => {
      const output = outputs[index];
      if (!output) throw new Error(`the render pool answered no output for ${locale}`);
      return [locale, output];
    }),
  );
}

/**
 * The email rendered for export in each locale, and the pre-send checks over what each audience
 * gets: for every locale, one render per audience (`audiencesToCheck`: every conditional at its
 * default branch, then each other branch of each conditional the email uses, at most
 * `maxAudiencesPerLocale`), plus, for a profile, the compiled render the file holds. All of them
 * go to the render pool in one batch, within `budget`: at most locales × (20 + 1) renders.
 * Audience renders are exports without a profile for one branch selection (personalization tags
 * at their default values). `renders` holds what the export writes, per locale.
 */
export async function checkForExport(
  renderer: Renderer,
  context: ExportContext,
  locales: readonly string[],
  options: { budget: RenderBudget },
): Promise<{ renders: Map<string, RenderOutput>; checks: PreSendCheckResult }> {
  const used = dynamicContentUsedIn(context.content, context.brandedComponents, locales).conditional_ids;
  const { audiences, unchecked } = audiencesToCheck(context.dynamicContent.conditionals ?? [], used);
  const withoutProfile = { ...context.dynamicContent, profileId: null };
  type Planned = { locale: string; audience: AudienceBranch | null | undefined; input: RenderInput };
  const planned: Planned[] = [];
  for (const locale of locales) {
    const base = {
      ...context.renderInput,
      locale,
      email: { ...context.renderInput.email, textDirection: textDirectionOf(locale) },
    };
    // The export's own render: without a profile it is the default audience's.
    if (context.profile) planned.push({ locale, audience: undefined, input: base });
    for (const audience of audiences)
      planned.push({
        locale,
        audience: audience.branch,
        input: { ...base, dynamicContent: withoutProfile, branchSelection: audience.selection },
      });
  }
  const outputs = await renderer.render(
    planned.map((entry) => entry.input),
    options.budget,
  );
  const renders = new Map<string, RenderOutput>();
  const localeRenders: LocaleRender[] = planned.map((entry, index) => {
    const output = outputs[index];
    if (!output) throw new Error(`the render pool answered no output for ${entry.locale}`);
    const exported = context.profile ? entry.audience === undefined : entry.audience === null;
    if (exported) renders.set(entry.locale, output);
    return {
      locale: entry.locale,
      html: output.html,
      diagnostics: output.diagnostics,
      audience: entry.audience,
    };
  });
  return { renders, checks: runChecks(context, locales, localeRenders, unchecked) };
}

/** The pre-send checks over the renders of the given locales and their audiences. */
function runChecks(
  context: ExportContext,
  locales: readonly string[],
  renders: readonly LocaleRender[],
  uncheckedAudiences: readonly AudienceBranch[],
): PreSendCheckResult {
  const branchKeys = new Map(
    (context.dynamicContent.conditionals ?? []).map((conditional) => [
      conditional.id,
      conditional.branches.map((branch) => branch.key),
    ]),
  );
  const branchKeysOf = (conditionalId: number) => branchKeys.get(conditionalId);
  return runPreSendChecks({
    content: context.content,
    locales,
    defaultLocale: context.email.defaultLocale,
    components: context.brandedComponents,
    validation: validateEmailContent({
      content: context.content,
      components: context.brandedComponents,
      locales,
      branchKeysOf,
    }),
    renders,
    branchKeysOf,
    dynamicContent: { profile: context.profile, conditionals: context.dynamicContent.conditionals ?? [] },
    uncheckedAudiences,
  });
}

/** What one locale exports as: the spec's export output, plus the stored images it shows. */
export interface LocaleOutput {
  locale: string;
  /** The exported resource's name: `per_locale_options.<locale>.resource_name`, else `<email name> (<locale>)`. */
  name: string;
  subject: string;
  preheader: string;
  html: string;
  plain_text: string;
  images: ExportImage[];
}

export function resourceName(email: { name: string }, options: StoredExportOptions, locale: string): string {
  return options.per_locale_options?.[locale]?.resource_name ?? `${email.name} (${locale})`;
}

/** Blocking diagnostics of a render, as export errors. */
export function renderErrors(output: RenderOutput): string[] {
  return output.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map(diagnosticMessage);
}
