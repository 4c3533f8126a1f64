import {
  applyBrandProfile,
  type ComponentDefinition,
  type DynamicContentInput,
  diagnosticMessage,
  type EmailContent,
  type PreSendCheckResult,
  type RenderInput,
  type RenderOutput,
  runPreSendChecks,
  textDirectionOf,
  validateEmailContent,
} from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { App } from '../../app.ts';
import { projects, type StoredExportOptions } from '../../db/schema.ts';
import type { RenderBudget, Renderer } from '../../render-pool/render-pool.ts';
import { renderingContext } from '../emails/emails.rendering.ts';
import { contentOf, type EmailRow } from '../emails/emails.service.ts';
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
}

export async function loadExportContext(
  app: App,
  email: EmailRow,
  dynamicContentProfileId: string | null,
): Promise<ExportContext> {
  const [{ system, definitions, brandProfile, dynamicContent }, [project]] = await Promise.all([
    renderingContext(app, email, dynamicContentProfileId),
    app.database.db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(eq(projects.id, email.projectId)),
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
  };
}

/**
 * The email in these locales as exported (CSS inlined, dynamic content compiled, problems as
 * diagnostics), rendered in the render pool within one budget that the locales share: a request
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

/** The pre-send checks over renders of the given locales. */
export function checkRenders(
  context: ExportContext,
  locales: readonly string[],
  renders: ReadonlyMap<string, RenderOutput>,
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
    renders: locales.flatMap((locale) => {
      const output = renders.get(locale);
      return output ? [{ locale, html: output.html, diagnostics: output.diagnostics }] : [];
    }),
    branchKeysOf,
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
