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
import { and, eq, inArray } from 'drizzle-orm';
import type { App } from '../../app.ts';
import { images, projects, type StoredExportOptions } from '../../db/schema.ts';
import type { RenderBudget, Renderer } from '../../render-pool/render-pool.ts';
import { renderingContext } from '../emails/emails.rendering.ts';
import { contentOf, type EmailRow } from '../emails/emails.service.ts';
import { toDesignSystemDefinition } from '../renders/renders.service.ts';

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

/** A library image an export shows. */
export interface ExportImage {
  id: string;
  /** Its file name in a zip's `images/` folder. */
  fileName: string;
  storageKey: string;
}

/**
 * Library images in HTML, wherever their URL points (this server's /files/, a bucket, a CDN):
 * every URL of an image carries its storage key, `images/<organization>/<image id>.<extension>`.
 */
const libraryImageUrl =
  /[^\s"'()<>,]*?\bimages\/(\d+)\/(img_[0-9a-f]{20})\.(png|jpe?g|gif|webp)(?![\w-])(?:\?[^\s"'()<>,]*)?/g;

/**
 * The organization's library images, looked up as HTML shows them: each id once per export,
 * however many locales show it.
 */
export class LibraryImages {
  private readonly known = new Map<string, ExportImage | null>();
  private readonly app: App;
  private readonly organizationId: number;

  constructor(app: App, organizationId: number) {
    this.app = app;
    this.organizationId = organizationId;
  }

  /** The library images an HTML document shows, by id. */
  async shownIn(html: string): Promise<Map<string, ExportImage>> {
    const ids = new Set<string>();
    for (const match of html.matchAll(libraryImageUrl)) {
      if (Number(match[1]) === this.organizationId && match[2]) ids.add(match[2]);
    }
    const unknown = [...ids].filter((id) => !this.known.has(id));
    if (unknown.length > 0) {
      const rows = await this.app.database.db
        .select({ id: images.id, storageKey: images.storageKey, extension: images.extension })
        .from(images)
        .where(and(eq(images.organizationId, this.organizationId), inArray(images.id, unknown)));
      for (const id of unknown) this.known.set(id, null);
      for (const row of rows)
        this.known.set(row.id, {
          id: row.id,
          fileName: `${row.id}.${row.extension}`,
          storageKey: row.storageKey,
        });
    }
    const shown = new Map<string, ExportImage>();
    for (const id of ids) {
      const image = this.known.get(id);
      if (image) shown.set(id, image);
    }
    return shown;
  }
}

/**
 * Points every library image URL of the HTML at `urlFor(image)`; images given by URL, and other
 * organizations' images, stay as they are. Returns the HTML and the images it shows.
 */
export function rewriteLibraryImages(
  html: string,
  organizationId: number,
  library: ReadonlyMap<string, ExportImage>,
  urlFor: (image: ExportImage) => string,
): { html: string; images: ExportImage[] } {
  const shown = new Map<string, ExportImage>();
  const rewritten = html.replace(libraryImageUrl, (url, organization: string, id: string) => {
    const image = Number(organization) === organizationId ? library.get(id) : undefined;
    if (!image) return url;
    shown.set(image.id, image);
    return urlFor(image);
  });
  return { html: rewritten, images: [...shown.values()] };
}

/** What one locale exports as: the spec's export output, plus the images it shows. */
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
