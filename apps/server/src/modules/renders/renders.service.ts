import {
  type BrandProfileDefinition,
  type ComponentDefinition,
  conditionalReferenceProblems,
  contentFromSimpleRender,
  type DesignSystemDefinition,
  type EmailContent,
  type FieldDefinition,
  type RenderOutput,
} from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { brandProfiles, components, emailDesignSystems } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { RenderBudget, Renderer } from '../../render-pool/render-pool.ts';
import type { DesignSystemSource } from '../../render-pool/render-sources.ts';
import type { PooledRenderInput } from '../../render-pool/render-tasks.ts';
import type { Services } from '../../services.ts';
import { toBrandProfileDefinition } from '../brand-profiles/brand-profiles.service.ts';
import { loadDynamicContent } from '../dynamic-content-profiles/dynamic-content-profiles.service.ts';
import { instanceReferenceProblems } from '../email-content/email-content.service.ts';
import { isVisibleIn } from '../email-design-systems/email-design-systems.service.ts';
import type { RenderRequest } from './renders.schemas.ts';

type Request = Static<typeof RenderRequest>;

/** The content to render and, for each instance id, the request path to report its problems at. */
function contentOf(request: Request, locale: string): { content: EmailContent; root: string } {
  if ((request.content === undefined) === (request.email_content === undefined)) {
    throw ValidationError.field('content', 'send either content or email_content');
  }
  if (request.content) return { content: contentFromSimpleRender(request.content, locale), root: 'content' };
  return { content: request.email_content as EmailContent, root: 'email_content' };
}

function instancePaths(content: EmailContent, root: string): Map<string, string> {
  const paths = new Map([[content.container_component_instance.id, `${root}.container_component_instance`]]);
  content.component_instances.forEach((instance, index) => {
    paths.set(instance.id, `${root}.component_instances.${index}`);
  });
  return paths;
}

type ComponentRow = typeof components.$inferSelect;

/** A design system's components, as stored and as the render engine takes them. */
export async function designSystemComponents(
  services: Pick<Services, 'database'>,
  systemId: number,
): Promise<{ rows: ComponentRow[]; definitions: ComponentDefinition[] }> {
  const rows = await services.database.db
    .select()
    .from(components)
    .where(eq(components.emailDesignSystemId, systemId));
  const definitions: ComponentDefinition[] = rows.map((row) => ({
    id: row.id,
    name: row.name,
    label: row.label,
    container: row.container,
    template: row.template,
    field_definitions: row.fieldDefinitions as unknown as FieldDefinition[],
    deprecated: row.deprecated,
    // The AI features choose components by their descriptions.
    description: row.description,
  }));
  return { rows, definitions };
}

export function toDesignSystemDefinition(
  system: typeof emailDesignSystems.$inferSelect,
): DesignSystemDefinition {
  return {
    id: system.id,
    name: system.name,
    design_tokens: system.designTokens,
    custom_styles: system.customStyles,
  };
}

/**
 * Renders as an export would, in the render pool within the request's budget: template problems
 * are errors (422, reported at the instance's path under `root`; a render past the budget names
 * the component that overran it), never a half-rendered email.
 */
export async function renderStrictly(
  renderer: Renderer,
  input: Omit<PooledRenderInput, 'strict'>,
  root: string,
  options: { plainText?: boolean; budget?: RenderBudget } = {},
): Promise<RenderOutput> {
  const paths = instancePaths(input.content, root);
  const [output] = await renderer.render([{ ...input, strict: true }], options.budget ?? renderer.budget(), {
    plainText: options.plainText === true,
  });
  if (!output) throw new Error('the render pool answered no output');
  const errors: Record<string, string[]> = {};
  for (const diagnostic of output.diagnostics.filter((candidate) => candidate.severity === 'error')) {
    const key = (diagnostic.componentInstanceId && paths.get(diagnostic.componentInstanceId)) || root;
    const where =
      diagnostic.line === undefined ? '' : ` (line ${diagnostic.line}, column ${diagnostic.column ?? 1})`;
    errors[key] = [
      ...(errors[key] ?? []),
      `${diagnostic.componentName ?? 'template'}: ${diagnostic.message}${where}`,
    ];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors, 'Validation failed');
  return output;
}

let designSystemLoads = 0;

/** A design system with its components and brand profiles, from the database. */
async function loadDesignSystemSource(
  services: Pick<Services, 'database'>,
  systemId: number,
): Promise<DesignSystemSource> {
  const db = services.database.db;
  const [row] = await db.select().from(emailDesignSystems).where(eq(emailDesignSystems.id, systemId));
  if (!row) throw new NotFoundError();
  const [{ rows, definitions }, brandRows] = await Promise.all([
    designSystemComponents(services, systemId),
    db.select().from(brandProfiles).where(eq(brandProfiles.emailDesignSystemId, systemId)),
  ]);
  return {
    row,
    definition: toDesignSystemDefinition(row),
    componentRows: rows,
    components: definitions,
    brandProfiles: new Map(brandRows.map((brand) => [brand.id, toBrandProfileDefinition(brand)])),
    renderKey: `email_design_system:${systemId}:${++designSystemLoads}`,
  };
}

/**
 * A design system with its components and brand profiles as `renderSources` keeps it: checked
 * against every change (one small query with PostgreSQL, none with PGlite), loaded on a miss.
 */
export async function keptDesignSystem(
  services: Pick<Services, 'database' | 'renderSources'>,
  systemId: number,
  workspaceId: number,
): Promise<DesignSystemSource> {
  const versions = await services.renderSources.versions(systemId, workspaceId);
  return services.renderSources.designSystem(systemId, versions, () =>
    loadDesignSystemSource(services, systemId),
  );
}

/**
 * Renders content against a design system without creating an email. What it reads besides the
 * request (the system, its components and brand profiles, the workspace's dynamic content) comes
 * from `renderSources`, kept in memory and checked against every change. The plain text is
 * made only when asked for.
 */
export async function renderContent(
  services: Services,
  principal: Principal,
  workspaceId: number,
  request: Request,
) {
  const renderSources = services.renderSources;
  const versions = await renderSources.versions(request.email_design_system_id, workspaceId);
  const source = await renderSources.designSystem(request.email_design_system_id, versions, () =>
    loadDesignSystemSource(services, request.email_design_system_id),
  );
  if (!isVisibleIn(source.row, principal, workspaceId)) throw new NotFoundError();
  const locale = request.locale ?? 'en-US';
  const { content, root } = contentOf(request, locale);

  const errors = instanceReferenceProblems(source.componentRows, content, root);
  let brandProfile: BrandProfileDefinition | null = null;
  if (request.brand_profile_id !== undefined) {
    brandProfile = source.brandProfiles.get(request.brand_profile_id) ?? null;
    if (!brandProfile) errors.brand_profile_id = ['is not a brand profile of this design system'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const asExport = request.dynamic_content_profile_id !== undefined;
  const profileId = request.dynamic_content_profile_id ?? null;
  const linkTrackingProfileId = request.link_tracking_profile_id ?? null;
  const dynamicContent = await renderSources.workspaceDynamicContent(
    workspaceId,
    `${profileId} ${linkTrackingProfileId}`,
    versions,
    () => loadDynamicContent(services, workspaceId, { profileId, linkTrackingProfileId }),
  );
  Object.assign(errors, conditionalReferenceProblems(content, dynamicContent.conditionals ?? [], root));
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const output = await renderStrictly(
    services.renderer,
    {
      designSystem: source.definition,
      components: source.components,
      designSystemKey: source.renderKey,
      brandProfile,
      content,
      locale,
      mode: asExport ? 'export' : 'render_api',
      dynamicContent,
      inlineCss: request.inline_css ?? false,
    },
    root,
    { plainText: request.plain_text === true },
  );
  return {
    html: output.html,
    subject: output.subject,
    preheader: output.preheader,
    ...(request.plain_text ? { plain_text: output.plainText } : {}),
    created_at: new Date(),
  };
}
